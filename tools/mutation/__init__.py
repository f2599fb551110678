"""Mutation testing of the reference implementation against the executable spec.

``python -m tools.mutation`` runs ``pytest features/`` against systematically broken copies of
``synapse_ref`` and reports per module how many of them the spec catches. The operators and the code
they leave alone are described in :mod:`tools.mutation.operators`, the execution in
:mod:`tools.mutation.runner`.
"""
