"""The game's random numbers: SplitMix64, in plain integers so that the kernel can do the same.

Both engines shuffle with this generator and nothing else, in the same order, so a game is fixed
by its seed and its decisions. Strategies draw from generators of their own.
"""

from nesim.errors import NesimError

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def check_seed(seed, where: str = "--seed") -> int:
    """A seed given by the user, refused (one line naming ``where``) unless 0 <= seed < 2**64.

    The generator keeps 64 bits, so a larger or negative seed would silently play the game of
    another seed while titles and manifests showed the one typed.
    """
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise NesimError(f"{where}: must be a whole number, got {seed!r}")
    if not 0 <= seed <= MASK64:
        raise NesimError(f"{where}: must be from 0 to 2**64-1 ({MASK64}), got {seed}")
    return seed


def mix64(z: int) -> int:
    """The SplitMix64 finaliser: a bijective scramble of a 64-bit word."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


class SplitMix64:
    """A tiny, fast, well-mixed 64-bit generator (Steele, Lea and Flood, 2014)."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next(self) -> int:
        self.state = (self.state + GOLDEN) & MASK64
        return mix64(self.state)

    def below(self, n: int) -> int:
        """A number in [0, n); the modulo bias is below 2**-50 for the n a game uses."""
        return self.next() % n

    def shuffle(self, items: list) -> None:
        """Fisher-Yates from the back, the order the kernel uses too."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def derive_seed(*parts: int) -> int:
    """A seed from several integers (master seed, variant, game index), independent of batching."""
    h = 0x6A09E667F3BCC908
    for p in parts:
        h = mix64(((h ^ (p & MASK64)) + GOLDEN) & MASK64)
    return h


def game_seeds(master: int, n_players: int, indices) -> "np.ndarray":
    """``derive_seed(master, n_players, i)`` for every index i, as uint64, vectorised.

    The variant is deliberately not an input: every variant of a sweep plays the same seeds
    (common random numbers), so the differences between variants carry less noise.
    """
    import numpy as np

    idx = np.asarray(indices, dtype=np.uint64)
    with np.errstate(over="ignore"):
        h = np.uint64(0x6A09E667F3BCC908)
        for p in (master, n_players):
            h = _mix64_np((h ^ np.uint64(p & MASK64)) + np.uint64(GOLDEN))
        return _mix64_np((h ^ idx) + np.uint64(GOLDEN))


def _mix64_np(z):
    import numpy as np

    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))
