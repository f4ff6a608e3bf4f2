//! Stockfish 15.1's net for the exactness tests. It cannot be committed (47 MB),
//! so it is exported at test time from Debian's Stockfish 15.1
//! (`apt-get install stockfish`, `/usr/games/stockfish`), whose `export_net`
//! command writes the net it embeds, `nn-ad9b42354671.nnue`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;

/// Where Debian installs Stockfish.
pub const DEBIAN_STOCKFISH: &str = "/usr/games/stockfish";
/// The name (and so the sha256 prefix) of 15.1's embedded net.
pub const SF15_1_NET: &str = "nn-ad9b42354671.nnue";
/// The net's size in bytes.
const SF15_1_NET_LEN: u64 = 47_001_499;

/// The path of 15.1's net under `dir`, exported from Debian's Stockfish if it is
/// not there yet; `None` (with a one-line notice on stderr naming `test`) when no
/// Stockfish is installed or it does not write that net (another version).
pub fn sf15_1_net(dir: &Path, test: &str) -> Option<PathBuf> {
    // One export at a time within a process (tests run on threads); other
    // processes are kept apart by the partial file's name.
    static EXPORT: Mutex<()> = Mutex::new(());
    let _guard = EXPORT.lock().unwrap_or_else(|e| e.into_inner());
    let path = dir.join(SF15_1_NET);
    if std::fs::metadata(&path).is_ok_and(|m| m.len() == SF15_1_NET_LEN) {
        return Some(path);
    }
    let skip = |why: String| {
        eprintln!("SKIPPED {test}: {why}; install Debian's stockfish (15.1) to run it");
        None
    };
    if !Path::new(DEBIAN_STOCKFISH).exists() {
        return skip(format!("{DEBIAN_STOCKFISH} not found"));
    }
    if let Err(e) = std::fs::create_dir_all(dir) {
        return skip(format!("cannot create {}: {e}", dir.display()));
    }
    // Exported under a name of this process, then renamed: tests of several
    // crates may export at once.
    let partial = dir.join(format!("{SF15_1_NET}.{}.partial", std::process::id()));
    if let Err(e) = export(&partial) {
        return skip(format!("{DEBIAN_STOCKFISH} export_net failed: {e}"));
    }
    let len = std::fs::metadata(&partial).map(|m| m.len()).unwrap_or(0);
    if len != SF15_1_NET_LEN {
        let _ = std::fs::remove_file(&partial);
        return skip(format!(
            "{DEBIAN_STOCKFISH} exported a {len}-byte net, not 15.1's {SF15_1_NET} \
             ({SF15_1_NET_LEN} bytes)"
        ));
    }
    std::fs::rename(&partial, &path).ok()?;
    Some(path)
}

/// Runs `export_net` of Debian's Stockfish into `path`.
fn export(path: &Path) -> std::io::Result<()> {
    let mut child = Command::new(DEBIAN_STOCKFISH)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()?;
    if let Some(stdin) = child.stdin.as_mut() {
        writeln!(stdin, "uci\nexport_net {}\nquit", path.display())?;
    }
    let status = child.wait()?;
    if status.success() {
        Ok(())
    } else {
        Err(std::io::Error::other(format!("exit status {status}")))
    }
}
