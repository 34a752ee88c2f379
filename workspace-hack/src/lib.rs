//! No code: the dependency list in Cargo.toml is the crate (cargo-hakari's workspace-hack). Each
//! workspace member depends on it, so every command builds the crates listed there with the
//! features the whole workspace's build gives them, and no command compiles them again for its
//! own selection of packages (issue 63; `.ci/rebuilds` counts).
