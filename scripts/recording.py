"""A recording as transit's replay reads it (Sources/TransitCore/HTTP/Recording.swift): a `# `
line per note, `status:` and `content-type:`, a blank line, then the body byte for byte. Shared
by the scripts/make-*-fixtures.py generators."""
import os


def write(path, body, notes, content_type):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    head = "".join("# %s\n" % n for n in notes) + "status: 200\ncontent-type: %s\n\n" % content_type
    with open(path, "wb") as f:
        f.write(head.encode() + body)
