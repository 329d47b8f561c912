import xenzyme


@xenzyme.derivative("j0", arity=2)
def j0_partials(e, x, y):
    return [None, None]
