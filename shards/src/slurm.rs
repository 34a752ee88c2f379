//! Slurm as the engine.
