"""The vision companion: read a phone photo of a board into a position.

    python -m vision read|score PHOTO --game GAME

It contributes the `/api/read` routes (`vision.api.routes`) that the server
(`python -m server`) mounts. Heavy dependencies (OpenCV) are imported by the
commands that need them, never at package import, so `import vision` stays cheap.
"""
