"""The statistics of the benchmark over seeds: IQM, stratified bootstrap intervals, performance profiles and curve
bands (``baselines.benchmark.aggregate``)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("scipy")

from baselines.benchmark.aggregate import (  # noqa: E402
    TAUS,
    cell_aggregates,
    curve_band,
    iqm,
    learner_aggregates,
    performance_profile,
    stratified_interval,
)


def result(game: str, learner: str, random: float, scripted: float) -> dict:
    return {"game": game, "learner": learner, "evaluations": [{"win_rate": random}, {"win_rate": scripted}]}


def test_the_iqm_is_the_mean_of_the_middle_half() -> None:
    assert iqm(np.array([0.0, 1.0, 2.0, 3.0, 100.0, -100.0, 1.5, 2.5])) == pytest.approx(1.75)
    assert iqm(np.array([0.2, 0.4, 0.6, 0.8])) == pytest.approx(0.5)


def test_the_interval_holds_the_value_and_narrows_with_more_runs() -> None:
    rng = np.random.default_rng(0)
    few = stratified_interval([rng.normal(0.5, 0.1, 5)])
    many = stratified_interval([rng.normal(0.5, 0.1, 200)])
    assert few[1] <= few[0] <= few[2] and many[1] <= many[0] <= many[2]
    assert many[2] - many[1] < few[2] - few[1]
    assert stratified_interval([[0.7]]) == (0.7, 0.7, 0.7)  # one run: nothing to resample


def test_a_stratum_of_one_run_stays_in_every_replicate() -> None:
    """A table still being filled (two workers finishing seeds in any order) has a cell with one seed beside cells
    with more: that run is in every replicate, the others are resampled within their cells."""
    assert stratified_interval([[0.5, 0.5], [0.5]]) == (0.5, 0.5, 0.5)
    value, low, high = stratified_interval([[0.2, 0.4, 0.6, 0.8], [1.0]])
    assert value == pytest.approx(iqm(np.array([0.2, 0.4, 0.6, 0.8, 1.0])))
    assert low < value < high
    replicate_low = iqm(np.array([0.2, 0.2, 0.2, 0.2, 1.0]))  # the lowest a replicate can be: 1.0 always in it
    assert replicate_low <= low and high <= iqm(np.array([0.8, 0.8, 0.8, 0.8, 1.0]))


def test_stratification_keeps_each_games_runs_within_that_game() -> None:
    easy, hard = [0.9, 0.95, 1.0, 0.92, 0.97], [0.1, 0.05, 0.12, 0.08, 0.0]
    value, low, high = stratified_interval([easy, hard])
    assert value == pytest.approx(iqm(np.array(easy + hard)))
    assert 0.3 < low <= value <= high < 0.7  # every replicate has five easy and five hard runs


def test_cells_and_learners_aggregate_their_seeds() -> None:
    results = [result("quoridor", "ppo", 0.9 + 0.01 * s, 0.5) for s in range(5)]
    results += [result("splendor", "ppo", 0.6, 0.1 * s) for s in range(5)]
    cells = {(a.game, a.role): a for a in cell_aggregates(results)}
    assert cells[("quoridor", "random")].runs == 5 and cells[("quoridor", "random")].iqm == pytest.approx(0.92)
    (everything,) = [a for a in learner_aggregates(results) if a.role == "scripted"]
    assert everything.game == "all" and everything.runs == 10


def test_a_performance_profile_falls_from_one_to_zero() -> None:
    fraction, low, high = performance_profile([[0.2, 0.4, 0.6], [0.5, 0.9, 0.95]])
    assert fraction[0] == 1.0 and fraction[-1] == 0.0 and np.all(np.diff(fraction) <= 0)
    assert np.all(low <= fraction) and np.all(fraction <= high) and len(fraction) == len(TAUS)
    assert fraction[np.searchsorted(TAUS, 0.5)] == pytest.approx(3 / 6)  # 0.6, 0.9 and 0.95 are above 0.5


def test_curves_of_several_seeds_are_banded_up_to_the_shortest() -> None:
    band = curve_band([[(1.0, 0.2), (2.0, 0.4), (3.0, 0.6)], [(1.2, 0.3), (2.2, 0.5)], [(0.8, 0.1), (1.8, 0.45)]])
    assert len(band.minutes) == 2 and band.minutes[0] == pytest.approx(1.0)
    assert np.all(band.low <= band.iqm) and np.all(band.iqm <= band.high)
