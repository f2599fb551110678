"""Semantic mutants: plausible porting bugs, each a whole implementation plugged in with ``--synapse-impl``.

Where ``tools.mutation`` flips one token of ``synapse_ref``, each module here is the reference adapter with
one component or function replaced by a version a team porting the system could well write: a rule
that agrees with the right one on the easy inputs and disagrees on the others.  Every module's
docstring says why the bug is plausible and which blind spot of a spec it probes; ``AREAS`` names the
feature directories whose scenarios the bug can reach (``--full`` runs all of them anyway).

The mutants wrap the reference's public components (the contract's methods) instead of patching its
internals, so they keep their meaning while ``synapse_ref`` is reorganised.

Run them with ``python -m tools.mutation --semantic``.
"""
