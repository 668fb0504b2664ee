"""Distribution-Based Compositionality Assessment (Keysers et al. 2020, "Measuring Compositional
Generalization: A Comprehensive Method on Realistic Data", ICLR 2020, Sec. 2 and appendices).

A sample is a rule-application DAG; its *atoms* are its node labels and its *compounds* are small
connected pieces of it, weighted by how much they say beyond the larger compounds around them.
The atom divergence D_A and the compound divergence D_C of a train/test split compare the two
sets' distributions with Chernoff coefficients; a maximum-compound-divergence (MCD) split has
similar atoms (low D_A) but different compounds (high D_C).

- :mod:`~tutorlib.dbca.graphs`: samples (:class:`RuleGraph`, :func:`from_tree`, :func:`from_edges`)
- :mod:`~tutorlib.dbca.compounds`: compounds and their weights
- :mod:`~tutorlib.dbca.pool`: a pool of samples as atom and compound count vectors
- :mod:`~tutorlib.dbca.divergence`: :func:`chernoff_coefficient`, :func:`divergences`
- :mod:`~tutorlib.dbca.splitter`: :func:`mcd_split`, the incremental greedy splitter
- :mod:`~tutorlib.dbca.reference`: the same greedy search rebuilding the distributions (a check)
- :mod:`~tutorlib.dbca.files`: :func:`read_index_split` for the released MCD split files

Examples
--------
>>> from tutorlib import dbca
>>> samples = [("S -> V twice", ("V -> U", f"U -> {a}")) for a in ("walk", "jump", "run")]
>>> dbca.divergences(samples[:2], samples[2:])[0] > 0
True
"""

from tutorlib.dbca.compounds import (
    Compound,
    CompoundConfig,
    WeightTable,
    compound_size,
    compound_weights,
    compounds,
    format_compound,
    occurrences,
    weight_table,
)
from tutorlib.dbca.divergence import (
    atom_divergence,
    chernoff_coefficient,
    compound_divergence,
    divergences,
)
from tutorlib.dbca.files import IndexSplit, read_index_split, write_index_split
from tutorlib.dbca.graphs import RuleGraph, as_graph, atom_counts, from_edges, from_tree, to_tree
from tutorlib.dbca.pool import Pool, SparseRows, build_pool
from tutorlib.dbca.scan_splits import mcd_result_of_scan, mcd_split_of_scan, scan_divergences, scan_pool
from tutorlib.dbca.splitter import SplitResult, mcd_split

__all__ = [
    "Compound", "CompoundConfig", "IndexSplit", "Pool", "RuleGraph", "SparseRows",
    "SplitResult", "WeightTable", "as_graph", "atom_counts", "atom_divergence", "build_pool",
    "chernoff_coefficient", "compound_divergence", "compound_size", "compound_weights",
    "compounds", "divergences", "format_compound", "from_edges", "from_tree",
    "mcd_result_of_scan", "mcd_split", "mcd_split_of_scan", "occurrences", "read_index_split",
    "scan_divergences", "scan_pool", "to_tree", "weight_table", "write_index_split",
]

from tutorlib.checks import type_check as _type_check  # noqa: E402

_type_check(globals(), __all__)
