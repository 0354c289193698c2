package io.riverbed.format.log;

/**
 * Counters of one log scan.
 *
 * @param logFiles log files opened
 * @param blocks blocks read, corrupt ones included (blocks after the stop point are not read)
 * @param corruptBlocks corrupt blocks read
 * @param rollbackBlocks rollback command blocks read
 * @param records data records merged
 * @param deletes delete-block entries applied
 * @param spilledEntries entries written to the spill file (an entry rewritten counts again)
 */
public record ScanStats(
    int logFiles, long blocks, long corruptBlocks, long rollbackBlocks, long records, long deletes, long spilledEntries) {}
