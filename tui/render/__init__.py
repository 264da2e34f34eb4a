"""Renders a replayed session to files: GIF, PNG, animated SVG, asciicast, MP4 and WebM.

Frames come from the replayed app itself, captured as cell grids whenever the screen
changes; each output format draws those grids. Nothing here reads the keyring or a secret.
"""
