# Plain classes that inherit: a base class with shared behaviour, subclasses that extend
# __init__ with super(), override methods and call the base's version.
import torch


class Shape:
    sides = 0

    def __init__(self, name):
        self.name = name

    def area(self):
        return 0.0

    def describe(self):
        return f"{self.name} with {self.sides} sides, area {self.area():.3f}"

    def __str__(self):
        return f"<{self.name}>"


class Rectangle(Shape):
    sides = 4

    def __init__(self, w, h):
        super().__init__("rectangle")
        self.w = w
        self.h = h

    def area(self):
        return self.w * self.h


class Square(Rectangle):
    def __init__(self, s):
        super().__init__(s, s)
        self.name = "square"

    def describe(self):
        return "a square: " + super().describe()


class Circle(Shape):
    def __init__(self, r):
        super(Circle, self).__init__("circle")
        self.r = torch.tensor(r)

    def area(self):
        return float(torch.pi * self.r**2)


shapes = [Rectangle(2, 3), Square(1.5), Circle(1.0), Shape("point")]
for s in shapes:
    print(s.describe())
print([str(s) for s in shapes])
print(isinstance(shapes[1], Rectangle), isinstance(shapes[1], Shape), isinstance(shapes[2], Rectangle))
print(type(shapes[1]).__name__, Square.sides, Circle.sides)
print(sum(s.area() for s in shapes))
print(max(shapes, key=lambda s: s.area()))
