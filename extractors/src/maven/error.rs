//! Errors of the Maven resolver; each names the coordinate and the repository, URL or file.

use std::path::PathBuf;

/// Everything that can go wrong while resolving or fetching Maven artifacts.
#[derive(Debug, thiserror::Error)]
pub enum MavenError {
    /// A coordinate string that is not `group:artifact[:extension[:classifier]][:version]`.
    #[error("malformed Maven coordinate {input:?}: {reason}")]
    BadCoordinate {
        /// What the user wrote.
        input: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A coordinate (from the command line, a POM or repository metadata) with a part that
    /// cannot become a path in a repository or the cache.
    #[error("{coordinate}: invalid coordinate: {reason}")]
    InvalidCoordinate {
        /// The coordinate (and, when known, the POM or file it came from).
        coordinate: String,
        /// Which part is wrong and why.
        reason: String,
    },
    /// A file larger, deeper or slower than thalia's limits allow (see the crate docs).
    #[error("{coordinate}: {location}: {reason}")]
    Limit {
        /// The coordinate (or the file's role).
        coordinate: String,
        /// The file or URL.
        location: String,
        /// Which limit was passed, with its name and value.
        reason: String,
    },
    /// A coordinate whose version is missing or cannot be determined.
    #[error("{coordinate}: cannot determine the version: {reason}")]
    Unresolved {
        /// The coordinate.
        coordinate: String,
        /// Why, including where the dependency was declared.
        reason: String,
    },
    /// A version range that cannot be satisfied or parsed.
    #[error("{coordinate}: version range `{range}`: {reason}")]
    VersionRange {
        /// The coordinate.
        coordinate: String,
        /// The range as written.
        range: String,
        /// What went wrong (unsatisfiable, malformed, no metadata).
        reason: String,
    },
    /// The file is in none of the repositories (each answered "not found").
    #[error("{coordinate}: {file} not found in any repository (tried {})", tried.join(", "))]
    NotFound {
        /// The coordinate.
        coordinate: String,
        /// The repository path that was asked for.
        file: String,
        /// Every URL that was tried.
        tried: Vec<String>,
    },
    /// A download that failed (after retries when the failure looked transient).
    #[error("{coordinate}: downloading {url} failed after {attempts} attempt(s): {reason}")]
    Transfer {
        /// The coordinate.
        coordinate: String,
        /// The URL.
        url: String,
        /// How many attempts were made.
        attempts: u32,
        /// The last failure.
        reason: String,
    },
    /// A downloaded (or cached) file whose checksum does not match the repository's.
    #[error(
        "{coordinate}: checksum mismatch for {file}: the repository says {algorithm} {expected}, \
         the file has {actual} (the file was not kept)"
    )]
    ChecksumMismatch {
        /// The coordinate.
        coordinate: String,
        /// The file (URL) whose contents did not match.
        file: String,
        /// `SHA-1` or `MD5`.
        algorithm: String,
        /// The checksum published by the repository.
        expected: String,
        /// The checksum of what was received.
        actual: String,
    },
    /// A checksum file that does not contain a checksum.
    #[error("{coordinate}: {url} is not a valid {algorithm} checksum file: {content:?}")]
    BadChecksumFile {
        /// The coordinate.
        coordinate: String,
        /// The checksum file's URL.
        url: String,
        /// `SHA-1` or `MD5`.
        algorithm: String,
        /// The first bytes of what was received.
        content: String,
    },
    /// A jar that does not open as a zip archive (truncated or corrupt).
    #[error("{coordinate}: {file} is not a valid jar (removed from the cache): {reason}")]
    CorruptArchive {
        /// The coordinate.
        coordinate: String,
        /// The file (URL or cache path).
        file: String,
        /// What the zip reader reported.
        reason: String,
    },
    /// A POM, metadata or settings file that is not what it should be.
    #[error("{coordinate}: cannot read {location}: {reason}")]
    Parse {
        /// The coordinate (or the file's role when there is none).
        coordinate: String,
        /// The file or URL.
        location: String,
        /// What is wrong.
        reason: String,
    },
    /// A cycle of POM parents, BOM imports or relocations.
    #[error("POM {kind} cycle: {}", chain.join(" -> "))]
    Cycle {
        /// `parent`, `BOM import` or `relocation`.
        kind: String,
        /// The coordinates on the cycle, the first repeated at the end.
        chain: Vec<String>,
    },
    /// A local file operation that failed.
    #[error("{coordinate}: {}: {source}", path.display())]
    Io {
        /// The coordinate (or the file's role).
        coordinate: String,
        /// The file or directory.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// An error met while handling a dependency, with the path that led to it.
    #[error("{source} (dependency path: {})", path.join(" -> "))]
    Needed {
        /// The coordinates from the root to the dependency.
        path: Vec<String>,
        /// What went wrong.
        source: Box<MavenError>,
    },
    /// The repository configuration is unusable.
    #[error("Maven repository configuration: {reason}")]
    Config {
        /// What is wrong, naming the value or file.
        reason: String,
    },
}

impl MavenError {
    /// The error without the dependency-path context added by [`MavenError::Needed`].
    pub fn innermost(&self) -> &MavenError {
        match self {
            MavenError::Needed { source, .. } => source.innermost(),
            other => other,
        }
    }

    /// Whether the error means "not in any repository".
    pub fn is_not_found(&self) -> bool {
        matches!(self.innermost(), MavenError::NotFound { .. })
    }
}

/// The resolver's result type.
pub type Result<T, E = MavenError> = std::result::Result<T, E>;
