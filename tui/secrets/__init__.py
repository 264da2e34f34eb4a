"""Secrets: the keyring store and the redactor that keeps secret values out of every channel; imports only tui.core."""
