import xenzyme

RULE_NAME = "j0"
raise RuntimeError("this rules file is broken on purpose")
