# Testing a small autograd function with unittest, the way GitHub scripts check their
# gradients against hand-derived ones before trusting them.
import math
import unittest

import torch


def soft_clip(x, limit=2.0):
    return limit * torch.tanh(x / limit)


def soft_clip_grad(x, limit=2.0):
    return 1 - torch.tanh(x / limit) ** 2


class TestSoftClip(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        print("preparing", cls.__name__)
        cls.points = torch.linspace(-3, 3, 7)

    def setUp(self):
        torch.manual_seed(0)
        self.x = self.points.clone().requires_grad_(True)

    def tearDown(self):
        self.x.grad = None

    def test_forward_is_bounded(self):
        y = soft_clip(self.x)
        print("max |y|:", y.abs().max().item())
        self.assertLess(y.abs().max().item(), 2.0)
        self.assertTrue(torch.all(y.abs() < 2))

    def test_gradient_matches_formula(self):
        soft_clip(self.x).sum().backward()
        expected = soft_clip_grad(self.x.detach())
        print(self.x.grad)
        self.assertTrue(torch.allclose(self.x.grad, expected, atol=1e-6))
        self.assertEqual(self.x.grad.shape, self.x.shape)
        self.assertIsInstance(self.x.grad, torch.Tensor)

    def test_gradient_at_zero(self):
        x = torch.tensor(0.0, requires_grad=True)
        (g,) = torch.autograd.grad(soft_clip(x), x)
        self.assertAlmostEqual(g.item(), 1.0)
        self.assertEqual(g.item(), 1.0)
        self.assertNotEqual(g.item(), 0.5)

    def test_double_precision_gradcheck(self):
        x = torch.randn(5, dtype=torch.float64, requires_grad=True)
        self.assertTrue(torch.autograd.gradcheck(soft_clip, (x,)))

    def test_errors(self):
        y = soft_clip(self.x)
        with self.assertRaises(RuntimeError) as cm:
            y.backward()
        print("RuntimeError:", cm.exception)
        self.assertIn("scalar outputs", str(cm.exception))
        self.assertRaises(RuntimeError, torch.autograd.grad, y.sum(), torch.ones(2))
        self.assertIsNone(self.x.grad)

    def test_limit_values(self):
        for limit in (0.5, 1.0, 4.0):
            y = soft_clip(torch.tensor(100.0), limit)
            self.assertAlmostEqual(y.item(), limit, places=5)
        self.assertAlmostEqual(math.tanh(1.0), 0.76159, delta=1e-4)
        self.assertGreaterEqual(soft_clip(torch.tensor(1.0)).item(), 0.9)


class TestAccumulation(unittest.TestCase):
    def test_grad_accumulates(self):
        w = torch.tensor([1.0, -2.0], requires_grad=True)
        for step in range(3):
            (w * w).sum().backward()
            print("step", step, w.grad.tolist())
        self.assertListEqual(w.grad.tolist(), [6.0, -12.0])
        self.assertFalse(w.grad.requires_grad)
        self.assertIsNotNone(w.grad)
        self.assertIsNone(w.grad_fn)

    def test_no_grad_block(self):
        w = torch.ones(3, requires_grad=True)
        with torch.no_grad():
            z = w * 2
        self.assertFalse(z.requires_grad)
        self.assertIsNone(z.grad_fn)
        self.assertNotIn(5.0, z.tolist())


if __name__ == "__main__":
    unittest.main()
