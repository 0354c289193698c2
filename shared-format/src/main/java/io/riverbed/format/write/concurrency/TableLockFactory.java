package io.riverbed.format.write.concurrency;

import io.riverbed.format.table.Table;

/**
 * Makes the {@link TableLock} of a table: how another lock service (ZooKeeper, a metastore) plugs
 * in, named by its class in {@value ConcurrencyOptions#LOCK_PROVIDER}. Needs a public no-argument
 * constructor.
 */
public interface TableLockFactory {
  TableLock open(Table table, ConcurrencyOptions options);
}
