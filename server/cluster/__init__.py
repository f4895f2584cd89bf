"""Nodes of a cluster: several servers sharing one PostgreSQL store and one Redis
(``node``: the theory of operation), the cluster's limits (``counts``)."""

from .node import Cluster, RemoteOccupant, RemoteTable, with_seq

__all__ = ["Cluster", "RemoteOccupant", "RemoteTable", "with_seq"]
