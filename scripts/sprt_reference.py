#!/usr/bin/env python3
"""Independent reference for the pentanomial SPRT of src/matches/sprt.rs.

Solves the same maximum-likelihood problems (Van den Bergh, "Comments on Normalized Elo") with
Newton's method instead of bisection, in plain Python, and prints the LLR of a few pentanomial
counts [LL, LD, WL+DD, WD, WW] for elo0=0, elo1=10 under the logistic and the normalized model.
The unit tests of sprt.rs compare against these numbers.

Usage: scripts/sprt_reference.py [LL LD WLDD WD WW ...]   (groups of five counts)
"""
import math
import sys

A = [0, 0.25, 0.5, 0.75, 1]


def regularize(counts):
    r = [x if x else 1e-3 for x in counts]
    t = sum(r)
    return t, [x / t for x in r]


def theta_newton(f, d, lo, hi):
    th = 0.0
    for _ in range(200):
        g = sum(fi * di / (1 + th * di) for fi, di in zip(f, d))
        dg = -sum(fi * di * di / (1 + th * di) ** 2 for fi, di in zip(f, d))
        nt = th - g / dg
        if nt <= lo:
            nt = (th + lo) / 2
        if nt >= hi:
            nt = (th + hi) / 2
        th = nt
    return th


def mle_mean(f, s):
    d = [a - s for a in A]
    th = theta_newton(f, d, -1 / (1 - s), -1 / (0 - s))
    return [fi / (1 + th * di) for fi, di in zip(f, d)]


def mle_t(f, t):
    p = [0.2] * 5
    for _ in range(500):
        mu = sum(pi * a for pi, a in zip(p, A))
        sd = math.sqrt(sum(pi * (a - mu) ** 2 for pi, a in zip(p, A)))
        phi = [a - 0.5 - 0.5 * t * sd * (1 + ((a - mu) / sd) ** 2) for a in A]
        th = theta_newton(f, phi, -1 / max(phi), -1 / min(phi))
        p = [fi / (1 + th * ph) for fi, ph in zip(f, phi)]
    return p


def llr(counts, elo0, elo1, model):
    n, f = regularize(counts)
    if model == "logistic":
        score = lambda e: 1 / (1 + 10 ** (-e / 400))
        p0, p1 = mle_mean(f, score(elo0)), mle_mean(f, score(elo1))
    else:
        k = math.sqrt(2) * math.log(10) / 800
        p0, p1 = mle_t(f, elo0 * k), mle_t(f, elo1 * k)
    return n * sum(fi * (math.log(b) - math.log(a)) for fi, a, b in zip(f, p0, p1))


if __name__ == "__main__":
    nums = [int(x) for x in sys.argv[1:]]
    cases = [nums[i:i + 5] for i in range(0, len(nums), 5)] or [
        [10, 20, 40, 20, 10],
        [5, 20, 40, 25, 10],
        [0, 30, 40, 0, 30],
        [100, 0, 500, 0, 150],
    ]
    for c in cases:
        print(c, "logistic %.4f" % llr(c, 0, 10, "logistic"),
              "normalized %.4f" % llr(c, 0, 10, "normalized"))
