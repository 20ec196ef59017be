"""What tests share: each module holds one harness and its fixtures, loaded as a pytest plugin by
tests/conftest.py; tests import the plain helpers (`mailbox`, `store_game`, ...) from here."""
