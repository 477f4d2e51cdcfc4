# A notebook-style test cell: tests of a tiny linear layer's gradients run with a
# TextTestRunner and with unittest.main(argv=[...], exit=False), then the assertion
# messages unittest writes, printed by catching them.
import unittest

import torch


def linear_grads(w, b, x):
    w = w.clone().requires_grad_(True)
    b = b.clone().requires_grad_(True)
    (x @ w + b).pow(2).mean().backward()
    return w.grad, b.grad


class LinearGradTest(unittest.TestCase):
    def setUp(self):
        self.w = torch.tensor([[0.5], [-1.0]])
        self.b = torch.tensor([0.25])
        self.x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])

    def test_shapes(self):
        gw, gb = linear_grads(self.w, self.b, self.x)
        self.assertEqual(tuple(gw.shape), (2, 1))
        self.assertEqual(gb.shape, torch.Size([1]))

    def test_bias_grad_by_hand(self):
        _, gb = linear_grads(self.w, self.b, self.x)
        out = self.x @ self.w + self.b
        self.assertAlmostEqual(gb.item(), (2 * out).mean().item(), places=6)

    def test_each_row(self):
        for i in range(2):
            with self.subTest(row=i):
                gw, _ = linear_grads(self.w, self.b, self.x[i : i + 1])
                self.assertEqual(gw.numel(), 2)

    @unittest.skip("needs a GPU")
    def test_cuda(self):
        print("never printed")

    @unittest.skipUnless(torch.__version__ >= "2", "old torch")
    def test_version(self):
        self.assertTrue(torch.__version__.startswith("2"))


suite = unittest.TestLoader().loadTestsFromTestCase(LinearGradTest)
print("tests:", suite.countTestCases())
result = unittest.TextTestRunner(verbosity=2).run(suite)
print("ran", result.testsRun, "failures", len(result.failures), "skipped", len(result.skipped))
print("successful:", result.wasSuccessful())

program = unittest.main(argv=["first-arg-is-ignored"], exit=False)
print("main ran", program.result.testsRun, "ok:", program.result.wasSuccessful())


class Messages(unittest.TestCase):
    def runTest(self):
        pass


t = Messages()
checks = [
    lambda: t.assertEqual(torch.tensor(2.0).item(), 3.0),
    lambda: t.assertEqual([1, 2, 3], [1, 2, 4]),
    lambda: t.assertEqual((1.5, 2.5), (1.5,)),
    lambda: t.assertEqual({"lr": 0.1}, {"lr": 0.01}),
    lambda: t.assertEqual("grad", "grads"),
    lambda: t.assertAlmostEqual(0.1 + 0.2, 0.31),
    lambda: t.assertAlmostEqual(1.0, 1.2, delta=0.1, msg="too far"),
    lambda: t.assertTrue(torch.tensor(0.0)),
    lambda: t.assertFalse(1),
    lambda: t.assertIsNone(torch.ones(2)),
    lambda: t.assertIn("w", {"b": 1}),
    lambda: t.assertIsInstance(1.5, int),
    lambda: t.assertGreater(torch.tensor(1.0), 2),
    lambda: t.assertRaises(ValueError, float, "1.5"),
    lambda: t.assertEqual(torch.ones(2), torch.ones(2)),
]
for i, check in enumerate(checks):
    try:
        check()
        print(i, "passed")
    except AssertionError as e:
        print(i, "AssertionError:", e)
    except RuntimeError as e:
        print(i, "RuntimeError:", e)

try:
    with t.assertRaises(IndexError):
        torch.zeros(3)[1]
except AssertionError as e:
    print("context:", e)
