//! `web-bindgen WASM OUT`: wasm-bindgen's JavaScript glue for the web app, run by `cargo xtask
//! web` after the WebAssembly's build. In-process through the `wasm-bindgen-cli-support`
//! crate, the very version of web/'s `wasm-bindgen` (so nothing needs a separate install), in
//! a binary of its own: wasm-bindgen's crates are minutes of build on two cores, which xtask,
//! built first by every `cargo xtask` command, would otherwise wait for (issue 63).

use std::path::PathBuf;

use anyhow::{Context, Result, bail};

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [wasm, out] = args.as_slice() else {
        bail!("usage: web-bindgen WASM OUT-FOLDER (cargo xtask web runs it)");
    };
    let (wasm, out) = (PathBuf::from(wasm), PathBuf::from(out));
    wasm_bindgen_cli_support::Bindgen::new()
        .input_path(&wasm)
        .web(true)?
        .typescript(false)
        .remove_name_section(true)
        .remove_producers_section(true)
        .generate(&out)
        .with_context(|| format!("wasm-bindgen on {}", wasm.display()))
}
