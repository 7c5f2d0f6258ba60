"""Unit tests of the board inventory: good files parse, bad ones name the line and key."""

import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import board_inventory  # noqa: E402
from board_inventory import InventoryError  # noqa: E402

GOOD = """\
[defaults]
known_hosts = "hosts/known"
host_key_policy = "strict"

[boards.orion-o6]
ssh = "me@orion.lan:2222"
identity_file = "keys/orion"
work_dir = "/home/me/tcpu"
cores = [4, 5, 0, 1]
may_set_governor = true
tags = ["cix-p1", "farm-a"]

[boards.rock5]
ssh = "rock5"
work_dir = "/srv/tcpu"
host_key_policy = "accept-new"
tags = ["farm-a"]
"""


class InventoryTest(unittest.TestCase):
    def load(self, text):
        folder = tempfile.mkdtemp(dir=os.environ.get("TEST_TMPDIR"))
        path = os.path.join(folder, "boards.toml")
        with open(path, "w") as f:
            f.write(text)
        return path, board_inventory.load(path)

    def error(self, text):
        with self.assertRaises(InventoryError) as caught:
            self.load(text)
        return str(caught.exception)

    def test_good_inventory(self):
        path, inventory = self.load(GOOD)
        orion = inventory.boards["orion-o6"]
        self.assertEqual(orion.destination.ssh_args(), ["-p", "2222", "me@orion.lan"])
        self.assertEqual(orion.cores, (0, 1, 4, 5))
        self.assertTrue(orion.may_set_governor)
        folder = os.path.dirname(path)
        self.assertEqual(orion.identity_file, os.path.join(folder, "keys/orion"))
        self.assertEqual(orion.known_hosts, os.path.join(folder, "hosts/known"))
        self.assertEqual(orion.host_key_policy, "strict")
        rock = inventory.boards["rock5"]
        self.assertEqual(rock.destination.ssh_args(), ["rock5"])  # an ~/.ssh/config alias
        self.assertEqual(rock.host_key_policy, "accept-new")
        self.assertFalse(rock.may_set_governor)
        self.assertEqual(rock.sysfs_root, "/sys")

    def test_select(self):
        _, inventory = self.load(GOOD)
        self.assertEqual([b.name for b in inventory.select("tag:farm-a")], ["orion-o6", "rock5"])
        self.assertEqual([b.name for b in inventory.select("rock5,orion-o6,rock5")],
                         ["rock5", "orion-o6"])
        with self.assertRaisesRegex(InventoryError, "no board matches 'nope'.*orion-o6, rock5"):
            inventory.select("nope")

    def test_syntax_error_names_line(self):
        message = self.error('[boards.a]\nssh = "a"\nwork_dir = /tmp\n')
        self.assertRegex(message, r"boards.toml:3: not valid TOML")

    def test_wrong_type_names_line_and_key(self):
        text = GOOD.replace("cores = [4, 5, 0, 1]", 'cores = "4-7"')
        self.assertRegex(self.error(text), r"boards.toml:9: boards.orion-o6.cores: must be a list")

    def test_bad_core_numbers(self):
        text = GOOD.replace("cores = [4, 5, 0, 1]", "cores = [4, 4]")
        self.assertRegex(self.error(text), r":9: boards.orion-o6.cores: must be distinct")

    def test_unknown_key(self):
        text = GOOD.replace('tags = ["farm-a"]', 'tags = ["farm-a"]\ngovernor = "yes"')
        self.assertRegex(self.error(text), r":18: boards.rock5.governor: unknown key")

    def test_secrets_refused(self):
        text = GOOD.replace('tags = ["farm-a"]', 'password = "hunter2"')
        self.assertRegex(self.error(text), r":17: boards.rock5.password: secrets do not belong")

    def test_missing_required_key_names_table_line(self):
        text = GOOD.replace('work_dir = "/srv/tcpu"\n', "")
        self.assertRegex(self.error(text), r":13: boards.rock5: missing required key 'work_dir'")

    def test_relative_or_escaping_work_dir(self):
        for bad in ("tcpu", "/home/me/../../etc", "/", "/home/me/$(reboot)"):
            text = GOOD.replace('work_dir = "/srv/tcpu"', f'work_dir = "{bad}"')
            self.assertRegex(self.error(text), r":15: boards.rock5.work_dir: ")

    def test_destination_injection_refused(self):
        for bad in ("-oProxyCommand=sh", "a b", "me@host:99999", "host;reboot"):
            text = GOOD.replace('ssh = "rock5"', f'ssh = "{bad}"')
            self.assertRegex(self.error(text), r":14: boards.rock5.ssh: ")

    def test_bad_board_name(self):
        text = GOOD.replace("[boards.rock5]", '[boards."rock 5"]')
        self.assertRegex(self.error(text), r":13: boards.rock 5: board names are")

    def test_bad_policy(self):
        text = GOOD.replace('host_key_policy = "accept-new"', 'host_key_policy = "yolo"')
        self.assertRegex(self.error(text), r":16: boards.rock5.host_key_policy: 'yolo'")

    def test_no_boards(self):
        self.assertRegex(self.error("[defaults]\n"), r"defines no boards")

    def test_example_inventory(self):
        here = os.path.dirname(os.path.abspath(__file__))
        example = board_inventory.load(os.path.join(here, "..", "boards.example.toml"))
        self.assertEqual(sorted(example.boards), ["orion-2", "orion-o6", "qemu-on-x86"])
        self.assertEqual([b.name for b in example.select("tag:cix-p1")], ["orion-o6", "orion-2"])

    def test_unreadable_file(self):
        with self.assertRaisesRegex(InventoryError, "missing.toml: cannot read"):
            board_inventory.load("/nonexistent/missing.toml")


if __name__ == "__main__":
    unittest.main(verbosity=2)
