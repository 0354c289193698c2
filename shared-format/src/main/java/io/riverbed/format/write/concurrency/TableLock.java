package io.riverbed.format.write.concurrency;

import io.riverbed.format.TableException;
import io.riverbed.format.table.Table;

/**
 * The lock concurrent writers of one table take around each commit's conflict check and commit
 * point, so two commits never both pass the check against a timeline the other is about to change
 * (Hudi's {@code TransactionManager} around {@code LockProvider}). Not reentrant.
 */
public interface TableLock {

  /** A taken lock; {@link #close} releases it. */
  interface Held extends AutoCloseable {
    @Override
    void close();
  }

  /**
   * Takes the lock, waiting for it as the options say.
   *
   * @throws LockTimeoutException naming the lock and its holder if it cannot be taken in time
   */
  Held acquire();

  /**
   * The lock {@code options} name for {@code table}: Hudi's file-system lock provider is
   * {@link FileSystemTableLock}; any other class name must implement {@link TableLockFactory}.
   *
   * @throws IllegalArgumentException naming {@value ConcurrencyOptions#LOCK_PROVIDER} if its class
   *     cannot be used
   */
  static TableLock open(Table table, ConcurrencyOptions options) {
    String provider = options.lockProvider();
    if (provider.equals(ConcurrencyOptions.FILE_SYSTEM_LOCK_PROVIDER)
        || provider.equals(FileSystemTableLock.class.getName())) {
      return FileSystemTableLock.of(table, options);
    }
    Class<?> type;
    try {
      type = Class.forName(provider, true, Thread.currentThread().getContextClassLoader());
    } catch (ClassNotFoundException e) {
      throw new IllegalArgumentException(ConcurrencyOptions.LOCK_PROVIDER + "=" + provider + ": no such class. "
          + "Riverbed implements " + ConcurrencyOptions.FILE_SYSTEM_LOCK_PROVIDER + "; other locks are classes "
          + "implementing " + TableLockFactory.class.getName(), e);
    }
    if (!TableLockFactory.class.isAssignableFrom(type)) {
      throw new IllegalArgumentException(ConcurrencyOptions.LOCK_PROVIDER + "=" + provider + " does not implement "
          + TableLockFactory.class.getName() + " (of Hudi's lock providers, Riverbed has " + ConcurrencyOptions.FILE_SYSTEM_LOCK_PROVIDER + " only)");
    }
    try {
      return ((TableLockFactory) type.getDeclaredConstructor().newInstance()).open(table, options);
    } catch (ReflectiveOperationException e) {
      throw new TableException(ConcurrencyOptions.LOCK_PROVIDER + "=" + provider + " cannot be created with a "
          + "public no-argument constructor: " + e, e);
    }
  }
}
