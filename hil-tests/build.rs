//! Stamps the program's version with the git commit it is built from (`BIRDCAGE_VERSION`):
//! shards made by another commit are foreign (shards/build/commit.rs).

#[path = "../shards/build/commit.rs"]
mod commit;

fn main() {
    commit::emit();
}
