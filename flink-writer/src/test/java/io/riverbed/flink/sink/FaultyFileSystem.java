package io.riverbed.flink.sink;

import java.io.File;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * The local file system under the scheme {@code faulty}, failing chosen calls, as Paimon's
 * {@code FailingFileIO}. A URI's authority names the test: {@code faulty://<test-id>/local/path}
 * is the local {@code /local/path}, and the faults {@link #arm armed} for that test id apply to
 * it. Hadoop caches one instance per authority, so each test has its own; the faults sit in a map
 * keyed by test id because the Flink tasks and coordinator of a MiniCluster in this JVM each open
 * the file system by URI.
 *
 * <p>A fault fires on the n-th call of its {@link Op} on a path matching its pattern (the
 * destination, for a rename), counted from when it was armed.
 */
public final class FaultyFileSystem extends RawLocalFileSystem {
  public static final String SCHEME = "faulty";

  /** The calls a fault can fail. Stream faults count matching creates and act on that stream. */
  public enum Op {
    /** The create throws; no file appears. */
    CREATE,
    /** The stream's first write reaching the file writes half its bytes, then throws. */
    WRITE,
    /** Every write succeeds; close truncates the file to half its length, then throws (a torn write). */
    TORN,
    /** The file is written and closed in full, then close throws (the writer believes it failed). */
    CLOSE,
    /** The stream's first write reaching the file stalls until the writing thread is interrupted, then throws. */
    STALL,
    /** The rename throws; nothing moves. Matched against the destination. */
    RENAME,
    /** The delete throws; nothing is deleted. */
    DELETE,
    /** The open for reading throws. */
    OPEN
  }

  /** One armed fault and the paths it fired on. */
  public static final class Fault {
    private final Op op;
    private final Pattern path;
    private final int nth;
    private final AtomicInteger calls = new AtomicInteger();
    private final List<String> fired = new CopyOnWriteArrayList<>();

    private Fault(Op op, Pattern path, int nth) {
      this.op = op;
      this.path = path;
      this.nth = nth;
    }

    private boolean fires(Op call, Path p) {
      if (call != op && !(call == Op.CREATE && isStreamFault())) {
        return false;
      }
      if (!path.matcher(p.toUri().getPath()).matches()) {
        return false;
      }
      if (calls.incrementAndGet() != nth) {
        return false;
      }
      fired.add(p.toUri().getPath());
      return true;
    }

    private boolean isStreamFault() {
      return op == Op.WRITE || op == Op.TORN || op == Op.CLOSE || op == Op.STALL;
    }

    /** True if the fault leaves its file shorter than written (WRITE, TORN, STALL). */
    public boolean cutsShort() {
      return op == Op.WRITE || op == Op.TORN || op == Op.STALL;
    }

    /** Local paths of the files this fault fired on. */
    public List<String> firedOn() {
      return List.copyOf(fired);
    }

    @Override
    public String toString() {
      return op + " #" + nth + " of " + path;
    }
  }

  private static final Map<String, List<Fault>> FAULTS = new ConcurrentHashMap<>();

  private URI uri;

  /** The {@code hadoop.*} writer options that make {@code faulty://} paths reach this class. */
  public static Map<String, String> writerOptions() {
    return Map.of("hadoop.fs." + SCHEME + ".impl", FaultyFileSystem.class.getName());
  }

  /** The faulty URI of a local path for test {@code testId} (letters, digits and dashes). */
  public static String uri(String testId, java.nio.file.Path local) {
    return SCHEME + "://" + testId + local.toAbsolutePath().toUri().getPath();
  }

  /** Makes the {@code nth} call of {@code op} on a path matching {@code pathRegex} fail, in test {@code testId}. */
  public static Fault arm(String testId, Op op, String pathRegex, int nth) {
    var fault = new Fault(op, Pattern.compile(pathRegex), nth);
    FAULTS.computeIfAbsent(testId, t -> new CopyOnWriteArrayList<>()).add(fault);
    return fault;
  }

  /** Forgets the faults of {@code testId}. */
  public static void disarm(String testId) {
    FAULTS.remove(testId);
  }

  @Override
  public void initialize(URI name, Configuration conf) throws IOException {
    super.initialize(name, conf);
    this.uri = URI.create(SCHEME + "://" + name.getAuthority() + "/");
    setWorkingDirectory(new Path(uri));
  }

  /** Before {@link #initialize} (the super constructor asks), the local file system's URI. */
  @Override
  public URI getUri() {
    return uri == null ? super.getUri() : uri;
  }

  @Override
  public String getScheme() {
    return SCHEME;
  }

  @Override
  public FileStatus getFileStatus(Path f) throws IOException {
    return plain(super.getFileStatus(f));
  }

  @Override
  public FileStatus getFileLinkStatus(Path f) throws IOException {
    return plain(super.getFileLinkStatus(f));
  }

  @Override
  public FileStatus[] listStatus(Path f) throws IOException {
    FileStatus[] statuses = super.listStatus(f);
    FileStatus[] out = new FileStatus[statuses.length];
    for (int i = 0; i < statuses.length; i++) {
      out[i] = plain(statuses[i]);
    }
    return out;
  }

  /**
   * A status without the local file system's lazily loaded permissions, which it loads from a
   * {@code file:} URI of the status path and so cannot load for a {@code faulty:} path.
   */
  private static FileStatus plain(FileStatus s) {
    return new FileStatus(s.getLen(), s.isDirectory(), s.getReplication(), s.getBlockSize(), s.getModificationTime(),
        s.getPath());
  }

  private Fault firing(Op op, Path path) {
    for (Fault f : FAULTS.getOrDefault(uri.getAuthority(), List.of())) {
      if (f.fires(op, path)) {
        return f;
      }
    }
    return null;
  }

  private static IOException injected(Fault fault, Path path) {
    return new IOException("injected fault " + fault + " on " + path);
  }

  @Override
  protected OutputStream createOutputStreamWithMode(Path f, boolean append, FsPermission permission)
      throws IOException {
    Fault fault = append ? null : firing(Op.CREATE, f);
    if (fault != null && fault.op == Op.CREATE) {
      throw injected(fault, f);
    }
    OutputStream out = super.createOutputStreamWithMode(f, append, permission);
    return fault == null ? out : new FaultyOutputStream(out, fault, f, pathToFile(f));
  }

  @Override
  protected OutputStream createOutputStream(Path f, boolean append) throws IOException {
    return createOutputStreamWithMode(f, append, null);
  }

  @Override
  public boolean rename(Path src, Path dst) throws IOException {
    Fault fault = firing(Op.RENAME, dst);
    if (fault != null) {
      throw injected(fault, dst);
    }
    return super.rename(src, dst);
  }

  @Override
  public boolean delete(Path p, boolean recursive) throws IOException {
    Fault fault = firing(Op.DELETE, p);
    if (fault != null) {
      throw injected(fault, p);
    }
    return super.delete(p, recursive);
  }

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    Fault fault = firing(Op.OPEN, f);
    if (fault != null) {
      throw injected(fault, f);
    }
    return super.open(f, bufferSize);
  }

  /** The stream of a file a WRITE, TORN or CLOSE fault fired on. */
  private static final class FaultyOutputStream extends OutputStream {
    private final OutputStream out;
    private final Fault fault;
    private final Path path;
    private final File file;
    private boolean failed;
    private boolean closed;

    FaultyOutputStream(OutputStream out, Fault fault, Path path, File file) {
      this.out = out;
      this.fault = fault;
      this.path = path;
      this.file = file;
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      if (failed) {
        throw new IOException("stream of " + path + " failed before");
      }
      if (fault.op == Op.STALL) {
        failed = true;
        stallUntilInterrupted();
      }
      if (fault.op == Op.WRITE) {
        failed = true;
        out.write(b, off, len / 2);
        out.flush();
        throw injected(fault, path);
      }
      out.write(b, off, len);
    }

    private void stallUntilInterrupted() throws IOException {
      Object never = new Object();
      synchronized (never) {
        try {
          while (true) {
            never.wait();
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("stalled write of " + path + " interrupted (" + fault + ")");
        }
      }
    }

    @Override
    public void flush() throws IOException {
      out.flush();
    }

    @Override
    public void close() throws IOException {
      if (closed) {
        return;
      }
      closed = true;
      out.close();
      if (fault.op == Op.TORN) {
        if (!file.exists()) {
          throw new FileNotFoundException(path + " vanished before it could be torn");
        }
        try (FileChannel channel = FileChannel.open(file.toPath(), StandardOpenOption.WRITE)) {
          channel.truncate(channel.size() / 2);
        }
        throw injected(fault, path);
      }
      if (fault.op == Op.CLOSE) {
        throw injected(fault, path);
      }
    }
  }
}
