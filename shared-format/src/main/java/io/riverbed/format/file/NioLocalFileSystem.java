package io.riverbed.format.file;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * Hadoop's local file system (checksummed, as {@code file:} paths get by default) whose file
 * permissions, owners and groups are set and read through {@code java.nio} instead of shell
 * commands. Without Hadoop's native library (the usual case outside a Hadoop installation) the
 * default one forks {@code chmod} for every file and folder it creates and {@code ls -ld} for every
 * listed file whose permission is asked for (a recursive listing asks for all): with a multi-GB
 * JVM each fork took tens of milliseconds, most of a streaming writer's checkpoint on a local table.
 * Everything else is Hadoop's {@link RawLocalFileSystem}.
 */
public final class NioLocalFileSystem extends LocalFileSystem {
  private static final String FILE_IMPL = "fs.file.impl";

  public NioLocalFileSystem() {
    super(new Raw());
  }

  /**
   * The file system of {@code path}: a new instance of this one for a local path when the
   * configuration maps {@code file:} to Hadoop's default local file system, else what
   * {@link Path#getFileSystem} gives.
   */
  public static FileSystem of(Path path, Configuration conf) throws IOException {
    String scheme = path.toUri().getScheme();
    if (scheme == null) {
      scheme = FileSystem.getDefaultUri(conf).getScheme();
    }
    if ("file".equals(scheme) && LocalFileSystem.class.getName().equals(conf.get(FILE_IMPL, LocalFileSystem.class.getName()))) {
      // the instance is not shared through Hadoop's cache, so its configuration reaches libraries' static caches
      // (Parquet keeps each codec with the configuration it was made with): it must not hold the class loader of
      // the thread that asked (a Flink job's, closed when the job ends), but one that lives as long as this class
      Configuration own = new Configuration(conf);
      own.setClassLoader(NioLocalFileSystem.class.getClassLoader());
      NioLocalFileSystem fs = new NioLocalFileSystem();
      fs.initialize(URI.create("file:///"), own);
      return fs;
    }
    return path.getFileSystem(conf);
  }

  /** The raw (unchecksummed) file system underneath, with the nio permission handling. */
  static final class Raw extends RawLocalFileSystem {

    @Override
    public void setPermission(Path p, FsPermission permission) throws IOException {
      java.nio.file.Path file = pathToFile(p).toPath();
      if (Files.getFileAttributeView(file, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS) == null) {
        super.setPermission(p, permission);
        return;
      }
      Files.setPosixFilePermissions(file, posix(permission));
    }

    @Override
    public FileStatus getFileStatus(Path f) throws IOException {
      return withNioAttributes(super.getFileStatus(f));
    }

    @Override
    public FileStatus getFileLinkStatus(Path f) throws IOException {
      return withNioAttributes(super.getFileLinkStatus(f));
    }

    @Override
    public FileStatus[] listStatus(Path f) throws IOException {
      FileStatus[] listed = super.listStatus(f);
      FileStatus[] statuses = new FileStatus[listed.length];
      for (int i = 0; i < listed.length; i++) {
        statuses[i] = withNioAttributes(listed[i]);
      }
      return statuses;
    }

    /** {@code status} with its permission, owner and group read by nio when first asked for. */
    private FileStatus withNioAttributes(FileStatus status) throws IOException {
      return new NioFileStatus(status, pathToFile(status.getPath()).toPath());
    }
  }

  /** A file status whose permission, owner and group come from one nio attribute read, on demand. */
  private static final class NioFileStatus extends FileStatus {
    private static final long serialVersionUID = 1L;
    private final transient java.nio.file.Path file;
    private transient PosixFileAttributes attributes;

    NioFileStatus(FileStatus status, java.nio.file.Path file) throws IOException {
      // the status's own getters for permission, owner and group are what fork a shell: not called here
      super(status.getLen(), status.isDirectory(), status.getReplication(), status.getBlockSize(),
          status.getModificationTime(), status.getAccessTime(), null, null, null,
          status.isSymlink() ? status.getSymlink() : null, status.getPath());
      this.file = file;
    }

    private PosixFileAttributes attributes() {
      if (attributes == null) {
        try {
          attributes = Files.readAttributes(file, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
          throw new java.io.UncheckedIOException("cannot read the attributes of " + file, e);
        }
      }
      return attributes;
    }

    @Override
    public FsPermission getPermission() {
      return file == null ? super.getPermission() : permission(attributes().permissions());
    }

    @Override
    public String getOwner() {
      return file == null ? super.getOwner() : attributes().owner().getName();
    }

    @Override
    public String getGroup() {
      return file == null ? super.getGroup() : attributes().group().getName();
    }
  }

  static Set<PosixFilePermission> posix(FsPermission permission) {
    Set<PosixFilePermission> set = EnumSet.noneOf(PosixFilePermission.class);
    add(set, permission.getUserAction(), PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE,
        PosixFilePermission.OWNER_EXECUTE);
    add(set, permission.getGroupAction(), PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE,
        PosixFilePermission.GROUP_EXECUTE);
    add(set, permission.getOtherAction(), PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE,
        PosixFilePermission.OTHERS_EXECUTE);
    return set;
  }

  private static void add(Set<PosixFilePermission> set, FsAction action, PosixFilePermission read,
      PosixFilePermission write, PosixFilePermission execute) {
    if (action.implies(FsAction.READ)) {
      set.add(read);
    }
    if (action.implies(FsAction.WRITE)) {
      set.add(write);
    }
    if (action.implies(FsAction.EXECUTE)) {
      set.add(execute);
    }
  }

  static FsPermission permission(Set<PosixFilePermission> posix) {
    return new FsPermission(
        action(posix, PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_EXECUTE),
        action(posix, PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE),
        action(posix, PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE,
            PosixFilePermission.OTHERS_EXECUTE));
  }

  private static FsAction action(Set<PosixFilePermission> posix, PosixFilePermission read, PosixFilePermission write,
      PosixFilePermission execute) {
    FsAction action = FsAction.NONE;
    if (posix.contains(read)) {
      action = action.or(FsAction.READ);
    }
    if (posix.contains(write)) {
      action = action.or(FsAction.WRITE);
    }
    if (posix.contains(execute)) {
      action = action.or(FsAction.EXECUTE);
    }
    return action;
  }
}
