"""The model bases every message, event and structure builds on.

One configuration (strict, frozen, unknown fields ignored) for the whole protocol, and
the tag field (``type`` or ``kind``) kept on the wire even when defaults are left out.
"""

from __future__ import annotations

from typing import Any, get_args

from pydantic import BaseModel, ConfigDict, SerializerFunctionWrapHandler, model_serializer

__all__ = ["Model", "Tagged", "by_tag"]


class Model(BaseModel):
    model_config = ConfigDict(
        strict=True, extra="ignore", frozen=True, use_attribute_docstrings=True
    )


def _tag_required(schema: dict[str, Any], cls: type) -> None:
    """The tag has a default in Python but is required on the wire."""
    props = schema.get("properties", {})
    tag = "type" if "type" in props else "kind"
    schema["required"] = [tag, *schema.get("required", [])]


class Tagged(Model):
    """A model named by a tag field (``type`` of a message, ``kind`` of an event) that
    is always serialized, even when the codec leaves out fields at their default."""

    model_config = ConfigDict(json_schema_extra=_tag_required)

    @model_serializer(mode="wrap")
    def _keep_tag(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        tag = "type" if "type" in type(self).model_fields else "kind"
        return {tag: getattr(self, tag), **data}


def by_tag(union: Any, tag: str) -> dict[str, type[BaseModel]]:
    """The members of a discriminated ``union`` by their ``tag`` field's value.

    The registries (``CLIENT_MESSAGES``, ...) are read off the unions, so a message
    added to a union is known to the codec without a second list to keep.
    """
    members: tuple[type[BaseModel], ...] = get_args(get_args(union)[0])
    return {m.model_fields[tag].default: m for m in members}
