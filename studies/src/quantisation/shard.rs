//! One shard of the plain quantisation study (decisions k mod P), and its bytes in a shard
//! file (JSON: floats written shortest-round-trip, so a shard read back is the shard written,
//! bit for bit).

use emulator::quantisation::{Column, Lost, Tally};
use heuristic::{Edge, Size};
use serde::{Deserialize, Serialize};

use super::Verdict;

/// What one shard found.
#[derive(Clone, Debug, PartialEq)]
pub struct PlainShard {
    /// The tally of the decisions it read.
    pub tally: Tally,
    /// The CSV rows of the positions that diverge somewhere, keyed by the decision's ordinal
    /// in the set.
    pub rows: Vec<(u64, Vec<String>)>,
    /// Decisions read.
    pub done: usize,
    /// Decisions the shard owns (`done` < `owned` when it was stopped).
    pub owned: usize,
}

/// A part that does not read back.
#[derive(Debug, thiserror::Error)]
#[error("not a quantisation part: {0}")]
pub struct QuantisationShardError(String);

#[derive(Serialize, Deserialize)]
struct LostJson {
    lost: f64,
    index: u32,
    chosen: String,
    judgement: usize,
}

#[derive(Serialize, Deserialize)]
struct ColumnJson {
    counts: [u64; 6],
    min_margin: Option<f64>,
    worst: Vec<LostJson>,
}

#[derive(Serialize, Deserialize)]
struct PartJson {
    done: usize,
    owned: usize,
    columns: Vec<ColumnJson>,
    margin_histogram: Vec<u64>,
    exact_ties: u64,
    rows: Vec<(u64, Vec<String>)>,
}

impl PlainShard {
    /// The part as bytes for its shard file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let json = PartJson {
            done: self.done,
            owned: self.owned,
            columns: self
                .tally
                .columns
                .iter()
                .map(|c| ColumnJson {
                    counts: c.counts,
                    min_margin: c.min_margin,
                    worst: c
                        .worst
                        .iter()
                        .map(|w| LostJson {
                            lost: w.lost,
                            index: w.index,
                            chosen: w.chosen.to_string(),
                            judgement: w.judgement.index(),
                        })
                        .collect(),
                })
                .collect(),
            margin_histogram: self.tally.margin_histogram.clone(),
            exact_ties: self.tally.exact_ties,
            rows: self.rows.clone(),
        };
        serde_json::to_vec(&json).expect("a part serialises")
    }

    /// A part read back from its bytes, for a study of `size` keeping `worst` divergences.
    pub fn from_bytes(
        bytes: &[u8],
        size: Size,
        worst: usize,
    ) -> Result<PlainShard, QuantisationShardError> {
        let json: PartJson =
            serde_json::from_slice(bytes).map_err(|e| QuantisationShardError(e.to_string()))?;
        let mut tally = Tally::new(json.columns.len(), worst);
        if json.margin_histogram.len() != tally.margin_histogram.len() {
            return Err(QuantisationShardError(
                "a margin histogram of another length".into(),
            ));
        }
        tally.margin_histogram = json.margin_histogram;
        tally.exact_ties = json.exact_ties;
        let mut columns = Vec::new();
        for c in json.columns {
            let mut worst = Vec::new();
            for w in c.worst {
                let chosen = Edge::parse(size, &w.chosen)
                    .map_err(|e| QuantisationShardError(format!("edge {}: {e}", w.chosen)))?;
                let judgement = *Verdict::ALL
                    .get(w.judgement)
                    .ok_or_else(|| QuantisationShardError(format!("judgement {}", w.judgement)))?;
                worst.push(Lost {
                    lost: w.lost,
                    index: w.index,
                    chosen,
                    judgement,
                });
            }
            columns.push(Column {
                counts: c.counts,
                min_margin: c.min_margin,
                worst,
            });
        }
        tally.columns = columns;
        Ok(PlainShard {
            tally,
            rows: json.rows,
            done: json.done,
            owned: json.owned,
        })
    }
}
