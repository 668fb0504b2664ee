"""A pool of samples as count vectors: atoms and weighted compounds per sample (Keysers et al.
2020, Sec. 2.1).

:func:`build_pool` turns a list of samples into a :class:`Pool`: one row per sample, with its
atom counts (how often each node label occurs) and its compound weights w(G, R) for the kept
compounds (:mod:`tutorlib.dbca.compounds`). Summing the rows of a set of samples gives the
unnormalised F_A and F_C of that set; the splitter and :meth:`Pool.divergences` work on these
rows, so a split given as indices is measured without looking at a graph again.

Examples
--------
>>> pool = build_pool([("a", ("b", "c")), ("b", "c"), ("a", "c")])
>>> pool.atoms
('a', 'b', 'c')
>>> pool.atom_matrix.sum_rows([0, 1]).tolist()
[1.0, 2.0, 2.0]
>>> len(pool), len(pool.compounds)
(3, 3)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
from tqdm import tqdm  # text bars: no widgets, no IProgress warning in notebooks

from tutorlib.dbca.chernoff import ATOM_ALPHA, COMPOUND_ALPHA, divergence_of_counts
from tutorlib.dbca.compounds import (
    DEFAULT_CONFIG,
    Compound,
    CompoundConfig,
    Interner,
    Sample,
    WeightTable,
    compounds_found,
    keep_top,
    table_from_found,
)
from tutorlib.dbca.graphs import as_graph


@dataclass(frozen=True, eq=False)
class SparseRows:
    """A sparse matrix in compressed-row form (``indptr``, ``indices``, ``data``), numpy only.

    Row ``i`` holds ``data[indptr[i]:indptr[i+1]]`` in the columns ``indices[...]`` (sorted).
    """

    indptr: np.ndarray
    indices: np.ndarray
    data: np.ndarray
    num_columns: int

    @classmethod
    def from_rows(cls, rows: Sequence[dict[int, float]], num_columns: int) -> SparseRows:
        """Build from one ``{column: value}`` dictionary per row (zeros dropped)."""
        indptr = np.zeros(len(rows) + 1, dtype=np.int64)
        indices: list[int] = []
        data: list[float] = []
        for i, row in enumerate(rows):
            for column in sorted(row):
                if row[column] != 0:
                    indices.append(column)
                    data.append(row[column])
            indptr[i + 1] = len(indices)
        return cls(indptr, np.asarray(indices, dtype=np.int64), np.asarray(data, dtype=float),
                   num_columns)

    @property
    def num_rows(self) -> int:
        return len(self.indptr) - 1

    def row_ids(self) -> np.ndarray:
        """The row of every stored value."""
        return np.repeat(np.arange(self.num_rows), np.diff(self.indptr))

    def row_sums(self) -> np.ndarray:
        """The sum of each row."""
        return np.bincount(self.row_ids(), weights=self.data, minlength=self.num_rows)

    def sum_rows(self, rows: Iterable[int]) -> np.ndarray:
        """The dense sum of the given rows (a row listed twice counts twice)."""
        rows = np.asarray(list(rows) if not isinstance(rows, np.ndarray) else rows, dtype=np.int64)
        if rows.size == 0:
            return np.zeros(self.num_columns)
        starts, ends = self.indptr[rows], self.indptr[rows + 1]
        lengths = ends - starts
        positions = (np.repeat(starts - np.cumsum(lengths) + lengths, lengths)
                     + np.arange(lengths.sum()))
        return np.bincount(self.indices[positions], weights=self.data[positions],
                           minlength=self.num_columns).astype(float)


@dataclass(frozen=True, eq=False)
class Pool:
    """Atoms and weighted compounds of every sample of a pool.

    Attributes
    ----------
    atoms : tuple of str
        The atoms (node labels), sorted; the columns of ``atom_matrix``.
    compounds : tuple of Compound
        The kept compounds, by decreasing pool weight W(G); the columns of ``compound_matrix``.
    compound_totals : numpy.ndarray
        W(G) of each kept compound.
    atom_matrix, compound_matrix : SparseRows
        One row per sample: atom counts, and w(G, R) of the kept compounds.
    table : WeightTable
        P(G' | G) estimated over the pool, used to weigh samples from outside it.
    """

    atoms: tuple[str, ...]
    compounds: tuple[Compound, ...]
    compound_totals: np.ndarray = field(repr=False)
    atom_matrix: SparseRows = field(repr=False)
    compound_matrix: SparseRows = field(repr=False)
    table: WeightTable = field(repr=False)
    compound_ids: dict[int, int] = field(repr=False)  # interned compound id -> column

    def __len__(self) -> int:
        return self.atom_matrix.num_rows

    def compound_counts(self, samples: Iterable[Sample]) -> np.ndarray:
        """The unnormalised F_C of ``samples`` (any samples; their weights use this pool's
        P(G' | G), and only the pool's kept compounds count)."""
        total = np.zeros(len(self.compounds))
        for sample in samples:
            found = compounds_found(sample, self.table.config, self.table.interner)
            for g, w in self.table.weights(found).items():
                column = self.compound_ids.get(g)
                if column is not None:
                    total[column] += w
        return total

    def divergences(self, train: Iterable[int], test: Iterable[int]) -> tuple[float, float]:
        """(D_A, D_C) of a split of this pool given as row indices."""
        train, test = _indices(train, len(self), "train"), _indices(test, len(self), "test")
        atom = divergence_of_counts(self.atom_matrix.sum_rows(train),
                                    self.atom_matrix.sum_rows(test), ATOM_ALPHA)
        compound = divergence_of_counts(self.compound_matrix.sum_rows(train),
                                        self.compound_matrix.sum_rows(test), COMPOUND_ALPHA)
        return atom, compound


def _indices(rows: Iterable[int], size: int, name: str) -> np.ndarray:
    rows = np.asarray(list(rows) if not isinstance(rows, np.ndarray) else rows)
    if rows.size == 0:
        raise ValueError(f"{name} is empty: a divergence compares two non-empty sets")
    if not np.issubdtype(rows.dtype, np.integer):
        raise ValueError(f"{name} indices must be integers, got dtype {rows.dtype}")
    bad = rows[(rows < 0) | (rows >= size)]
    if bad.size:
        raise ValueError(f"{name} index {int(bad[0])} is outside the pool of {size} samples")
    return rows.astype(np.int64)


def build_pool(samples: Sequence[Sample], config: CompoundConfig = DEFAULT_CONFIG,
               top_n: int | None = 100_000, progress: bool = False) -> Pool:
    """Atoms and compound weights of every sample, with P(G' | G) estimated over ``samples``.

    Parameters
    ----------
    samples : sequence of trees or RuleGraph
        The pool (see :mod:`tutorlib.dbca.graphs` for the accepted forms).
    config : CompoundConfig
        Which subgraphs are compounds.
    top_n : int or None
        Keep the ``top_n`` compounds of largest pool weight W(G) (the paper: 100,000).
    progress : bool
        Show a progress bar.

    Returns
    -------
    Pool
        One row per sample, in the order of ``samples``: its atom counts and its weights w(G, R)
        of the kept compounds.

    Raises
    ------
    ValueError
        For an empty pool, or a sample that is not a valid tree or graph (naming its index).
    """
    if len(samples) == 0:
        raise ValueError("the pool is empty: build_pool needs at least one sample")
    graphs = []
    for i, sample in enumerate(samples):
        try:
            graphs.append(as_graph(sample))
        except ValueError as error:
            raise ValueError(f"sample {i}: {error}") from None
    interner = Interner()
    found = [compounds_found(g, config, interner)
             for g in tqdm(graphs, desc="compounds", disable=not progress, leave=False)]
    table = table_from_found(found, config, interner)
    weights = [table.weights(f) for f in found]
    totals: dict[int, float] = {}
    for row in weights:
        for g, w in row.items():
            totals[g] = totals.get(g, 0.0) + w
    kept = keep_top(totals, top_n)
    columns = {g: k for k, g in enumerate(kept)}
    atoms = tuple(sorted({label for g in graphs for label in g.labels}))
    atom_column = {a: k for k, a in enumerate(atoms)}
    atom_rows = []
    for g in graphs:
        row: dict[int, float] = {}
        for label in g.labels:
            row[atom_column[label]] = row.get(atom_column[label], 0.0) + 1.0
        atom_rows.append(row)
    compound_rows = [{columns[g]: w for g, w in row.items() if g in columns} for row in weights]
    return Pool(atoms=atoms, compounds=tuple(interner.compound(g) for g in kept),
                compound_totals=np.array(list(kept.values())),
                atom_matrix=SparseRows.from_rows(atom_rows, len(atoms)),
                compound_matrix=SparseRows.from_rows(compound_rows, len(kept)),
                table=table, compound_ids=columns)
