"""The command a feature names when its optional part (extra) is missing: from the checkout the
package was installed from, or by name from a package index."""

import json

import pytest

from mastermind.runtime import install


class Installed:
    """A distribution whose pip record (direct_url.json) is ``record`` (None: no record)."""

    def __init__(self, record):
        self.record = record

    def read_text(self, name):
        assert name == "direct_url.json"
        return None if self.record is None else json.dumps(self.record)


@pytest.mark.parametrize(
    ("record", "command"),
    [
        (
            {"url": "file:///home/me/mastermind", "dir_info": {"editable": True}},
            "pip install -e '/home/me/mastermind[tui]'",
        ),
        ({"url": "file:///srv/my%20copy", "dir_info": {}}, "pip install '/srv/my copy[tui]'"),
        (
            {"url": "file:///tmp/mastermind_lab-0.1.0-py3-none-any.whl", "archive_info": {}},
            "pip install 'mastermind-lab[tui]'",
        ),
        (
            {"url": "https://example.org/mastermind.tar.gz", "archive_info": {}},
            "pip install 'mastermind-lab[tui]'",
        ),
        (None, "pip install 'mastermind-lab[tui]'"),  # from a package index: pip writes no record
    ],
)
def test_the_install_command_names_the_checkout_the_package_came_from(monkeypatch, record, command):
    import importlib.metadata

    monkeypatch.setattr(importlib.metadata, "distributions", lambda name: [Installed(record)])
    assert install.install_command("tui") == command


def test_a_checkout_s_own_build_metadata_first_on_the_path_is_passed_over(monkeypatch):
    """Tests run from a checkout may find its src/*.egg-info (no pip record) before the install."""
    import importlib.metadata

    editable = {"url": "file:///home/me/mastermind", "dir_info": {"editable": True}}
    monkeypatch.setattr(
        importlib.metadata, "distributions", lambda name: [Installed(None), Installed(editable)]
    )
    assert install.install_command("web") == "pip install -e '/home/me/mastermind[web]'"


def test_a_damaged_record_falls_back_to_the_name(monkeypatch):
    import importlib.metadata

    class Damaged(Installed):
        def read_text(self, name):
            return "{not json"

    monkeypatch.setattr(importlib.metadata, "distributions", lambda name: [Damaged(None)])
    assert install.install_command("web") == "pip install 'mastermind-lab[web]'"
