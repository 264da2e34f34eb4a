"""Schemas more than one test module uses."""

from __future__ import annotations

from typing import Any

# The elicitation schema of the MCP "everything" reference server, every kind the subset has.
EVERYTHING: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "title": "Full name", "description": "Your full, legal name"},
        "check": {"type": "boolean", "title": "Agree", "description": "Agree to the terms"},
        "firstLine": {
            "type": "string",
            "title": "String with default",
            "default": "It was a dark and stormy night.",
        },
        "email": {"type": "string", "format": "email", "title": "Email"},
        "homepage": {"type": "string", "format": "uri", "title": "Homepage"},
        "birthdate": {"type": "string", "format": "date", "title": "Birthdate"},
        "meeting": {"type": "string", "format": "date-time", "title": "Meeting"},
        "age": {"type": "integer", "title": "Age", "minimum": 1, "maximum": 100, "default": 42},
        "score": {
            "type": "number",
            "title": "Score",
            "minimum": 0,
            "maximum": 1000,
            "default": 3.14,
        },
        "untitledSingleSelectEnum": {
            "type": "string",
            "title": "Friend",
            "enum": ["Monica", "Rachel", "Joey", "Chandler", "Ross", "Phoebe"],
            "default": "Monica",
        },
        "titledSingleSelectEnum": {
            "type": "string",
            "title": "Hero",
            "oneOf": [
                {"const": "hero-1", "title": "Superman"},
                {"const": "hero-2", "title": "Green Lantern"},
                {"const": "hero-3", "title": "Wonder Woman"},
            ],
            "default": "hero-1",
        },
        "legacyTitledEnum": {
            "type": "string",
            "title": "Pet",
            "enum": ["pet-1", "pet-2", "pet-3"],
            "enumNames": ["Cats", "Dogs", "Birds"],
            "default": "pet-1",
        },
        "untitledMultipleSelectEnum": {
            "type": "array",
            "title": "Instruments",
            "minItems": 1,
            "maxItems": 3,
            "items": {"type": "string", "enum": ["Guitar", "Piano", "Violin", "Drums", "Bass"]},
            "default": ["Guitar"],
        },
        "titledMultipleSelectEnum": {
            "type": "array",
            "title": "Fish",
            "minItems": 1,
            "maxItems": 3,
            "items": {
                "anyOf": [
                    {"const": "fish-1", "title": "Tuna"},
                    {"const": "fish-2", "title": "Salmon"},
                    {"const": "fish-3", "title": "Trout"},
                ]
            },
            "default": ["fish-1"],
        },
    },
    "required": ["name"],
}
