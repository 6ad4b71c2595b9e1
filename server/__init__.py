"""The companion server: serves the built web app and mounts the routes `vision` contributes.

    python -m server [--lan] [--port N] [--dist DIR]

127.0.0.1 only unless asked for the LAN. `create_app` (server.app) assembles the app and its
guards, `server.limits` holds what a client can make it hold, `server.hosts` who may talk to
it, `server.errors` how a refusal is answered, `server.serve` runs it under uvicorn.
"""
