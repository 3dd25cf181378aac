"""Tests of the Quoridor game."""
