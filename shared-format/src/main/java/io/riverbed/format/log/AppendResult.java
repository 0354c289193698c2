package io.riverbed.format.log;

/** A block appended to a log file: the offset of its first byte (its magic) and its length on disk. */
public record AppendResult(long offset, long length) {}
