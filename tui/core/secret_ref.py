"""A pointer to a secret kept in the system keyring: the agent holds this, never the value."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, SecretStr


class SecretRef(BaseModel):
    """Where a secret was stored; `get()` reads it back from the keyring when it is needed."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    service: str = Field(min_length=1)
    username: str = Field(min_length=1)

    def get(self) -> SecretStr:
        """The stored value; raises LookupError if the keyring no longer has it."""
        import keyring

        value = keyring.get_password(self.service, self.username)
        if value is None:
            raise LookupError(f"no keyring entry {self.service}/{self.username}")
        return SecretStr(value)

    def __str__(self) -> str:
        return f"keyring:{self.service}/{self.username}"
