"""The second hostile corpus (issue 9): cases as data (`cases.py`), how to run one
(`runner.py`) and how to judge the result (`judge.py`). The harness is
`tests/corpus/test_hostile2.py`."""
