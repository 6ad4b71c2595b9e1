"""The vision companion: read a phone photo of a board into a position, and serve the web app.

    python -m vision server [--port N] [--lan] [--dist DIR]

Heavy dependencies (OpenCV, the ASGI server) are imported by the commands that
need them, never at package import, so `import vision` stays cheap.
"""
