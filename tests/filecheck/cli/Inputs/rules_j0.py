"""d/dx j0(x) = -j1(x) (Bessel functions of the first kind, in libm)."""
import xenzyme
from xenzyme.rules import Partial


@xenzyme.derivative("j0", arity=1)
def j0_partials(e, x, y):
    return [lambda: Partial(factor=e.call("j1", x[0]()), negate=True)]
