//! GSPMD's `sharding={...}` attribute as a typed value: `{replicated}`,
//! `{manual}`, `{maximal device=0}`, a tiling `{devices=[4,1]<=[4]}` (or
//! with the devices listed, `{devices=[2,2]0,2,1,3}`), with
//! `last_tile_dim_replicate` or `last_tile_dims={...}`, and a tuple of
//! those, `{{devices=[2,1,2]<=[4] last_tile_dim_replicate}, {replicated}}`
//! (XLA's `HloSharding::ToString`). The raw text is kept.

use super::iota::{self, Iota};
use super::model::{Instruction, Module};
use super::text;

/// Which devices hold the tiles, in tile order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TileDevices {
    /// An iota list: `<=[4]`, `<=[2,2]T(1,0)`.
    Iota(Iota),
    /// Listed: `0,2,1,3`.
    Listed(Vec<u64>),
}

/// A tiled sharding: `devices=[tile]...`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tiled<'a> {
    /// The tile assignment's shape: one entry per array dimension, then
    /// one for `last_tile_dim_replicate` or one per `last_tile_dims` entry.
    pub tile: Vec<u64>,
    /// The devices, in row-major order of `tile`.
    pub devices: TileDevices,
    /// `last_tile_dim_replicate`: the last tile dimension lists devices
    /// that hold the same tile.
    pub last_tile_dim_replicate: bool,
    /// `last_tile_dims={manual, replicated}`: what each trailing tile
    /// dimension is, as printed.
    pub last_tile_dims: Vec<&'a str>,
}

impl Tiled<'_> {
    /// The tile counts of the array's own dimensions (the trailing
    /// replication and subgroup dimensions left out).
    pub fn data_tiles(&self) -> &[u64] {
        let extra = usize::from(self.last_tile_dim_replicate) + self.last_tile_dims.len();
        let keep = self.tile.len().saturating_sub(extra);
        self.tile.get(..keep).unwrap_or(&[])
    }

    /// How many devices hold each tile (1 without replication).
    pub fn replication(&self) -> u64 {
        let data = self.data_tiles().len();
        self.tile.get(data..).and_then(iota::product).unwrap_or(1)
    }

    /// One device's part of an array of shape `global`: each dimension
    /// divided by its tile count, rounded up as XLA pads; `None` when the
    /// ranks differ.
    pub fn shard_shape(&self, global: &[u64]) -> Option<Vec<u64>> {
        let tiles = self.data_tiles();
        (tiles.len() == global.len()).then(|| {
            global
                .iter()
                .zip(tiles)
                .map(|(&d, &t)| if t == 0 { d } else { d.div_ceil(t) })
                .collect()
        })
    }

    /// The devices in row-major order of `tile`; `None` when an iota list
    /// cannot be expanded (see [`Iota::devices`]).
    pub fn device_list(&self) -> Option<Vec<u64>> {
        match &self.devices {
            TileDevices::Iota(i) => i.devices(),
            TileDevices::Listed(d) => Some(d.clone()),
        }
    }
}

/// What a sharding says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShardingKind<'a> {
    /// `{replicated}`: every device holds all of it.
    Replicated,
    /// `{manual}`: the program itself handles each device's part
    /// (`shard_map`'s body).
    Manual,
    /// `{unknown}`: left for the partitioner to decide.
    Unknown,
    /// `{maximal device=N}`: one device holds all of it.
    Maximal {
        /// The device.
        device: u64,
    },
    /// Cut into tiles.
    Tiled(Tiled<'a>),
    /// One sharding per element of a tuple.
    Tuple(Vec<Sharding<'a>>),
    /// A form this reader does not know.
    Unread,
}

/// A `sharding=` value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sharding<'a> {
    /// The value as printed.
    pub raw: &'a str,
    /// What it says.
    pub kind: ShardingKind<'a>,
}

/// How deep tuple shardings nest before the rest is left unread.
const MAX_DEPTH: usize = 8;

impl<'a> Sharding<'a> {
    /// Reads a `sharding=` value; never fails (an unknown form is
    /// [`ShardingKind::Unread`]).
    pub fn parse(raw: &'a str) -> Self {
        Self::parse_at(raw, 0)
    }

    fn parse_at(raw: &'a str, depth: usize) -> Self {
        let inner = raw
            .trim()
            .strip_prefix('{')
            .and_then(|s| s.strip_suffix('}'))
            .map(str::trim);
        let kind = match inner {
            None => ShardingKind::Unread,
            Some(i) if i.starts_with('{') => {
                if depth >= MAX_DEPTH {
                    ShardingKind::Unread
                } else {
                    let mut parts = Vec::new();
                    text::for_each_top(i, |p| parts.push(Self::parse_at(p, depth + 1)));
                    ShardingKind::Tuple(parts)
                }
            }
            Some(i) => single(i),
        };
        Sharding { raw, kind }
    }
}

/// One sharding's words (inside its braces).
fn single(i: &str) -> ShardingKind<'_> {
    // A `metadata={...}` suffix says where it came from, not what it is.
    let i = i
        .find(" metadata=")
        .map_or(i, |at| i.get(..at).unwrap_or(i))
        .trim();
    let first = i.split_whitespace().next().unwrap_or("");
    match first {
        "replicated" => ShardingKind::Replicated,
        "manual" => ShardingKind::Manual,
        "unknown" => ShardingKind::Unknown,
        "maximal" => i
            .split_whitespace()
            .find_map(|w| w.strip_prefix("device="))
            .and_then(|d| d.parse().ok())
            .map_or(ShardingKind::Unread, |device| ShardingKind::Maximal {
                device,
            }),
        _ => i
            .strip_prefix("devices=")
            .and_then(tiled)
            .map_or(ShardingKind::Unread, ShardingKind::Tiled),
    }
}

/// `[4,1]<=[4] last_tile_dim_replicate` or `[2,2]0,2,1,3` (after
/// `devices=`).
fn tiled(s: &str) -> Option<Tiled<'_>> {
    let (tile, rest, devices) = match Iota::parse_prefix(s) {
        Some((i, rest)) => (i.dims.clone(), rest, TileDevices::Iota(i)),
        None => {
            let (tile, rest) = iota::bracketed(s)?;
            let end = rest.find(' ').unwrap_or(rest.len());
            let listed = iota::numbers(rest.get(..end)?)?;
            (tile, rest.get(end..)?, TileDevices::Listed(listed))
        }
    };
    let mut t = Tiled {
        tile,
        devices,
        last_tile_dim_replicate: false,
        last_tile_dims: Vec::new(),
    };
    let rest = rest.trim();
    if let Some(at) = rest.find("last_tile_dims={") {
        let list = rest.get(at + "last_tile_dims={".len()..)?;
        let end = list.find('}')?;
        t.last_tile_dims = list
            .get(..end)?
            .split(',')
            .map(str::trim)
            .filter(|w| !w.is_empty())
            .collect();
    } else if rest
        .split_whitespace()
        .any(|w| w == "last_tile_dim_replicate")
    {
        t.last_tile_dim_replicate = true;
    }
    Some(t)
}

impl<'a> Module<'a> {
    /// An instruction's `sharding=`, read.
    pub fn sharding(&self, ins: &Instruction<'a>) -> Option<Sharding<'a>> {
        self.attr(ins, "sharding").map(Sharding::parse)
    }
}
