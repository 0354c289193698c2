package io.riverbed.it.hive.engine;

import io.riverbed.format.testing.Await;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Base64;

/**
 * The main of the child JVM that {@link HiveEngine} starts on Hive 4's classpath (its
 * {@code hive-site.xml} first on it): a Hive Metastore served over thrift on the given port, then
 * HiveServer2 embedded ({@code jdbc:hive2://}) as that metastore's client. It prints
 * {@code READY} and then answers one statement per line of standard input (Base64 of its UTF-8)
 * with {@code ROW} lines (cells Base64, null as {@code -}, separated by spaces), then {@code END},
 * or {@code ERROR <Base64 message>}. It uses only the JDK (JDBC, and reflection to start the
 * metastore), so it compiles on this module's classpath and runs on Hive's.
 */
public final class HiveEngineMain {
  private HiveEngineMain() {}

  public static void main(String[] args) throws Exception {
    int port = Integer.parseInt(args[0]);
    PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true, StandardCharsets.UTF_8);
    System.setOut(System.err);
    Thread metastore = new Thread(() -> {
      try {
        Class.forName("org.apache.hadoop.hive.metastore.HiveMetaStore").getMethod("main", String[].class)
            .invoke(null, (Object) new String[] {"-p", String.valueOf(port)});
      } catch (InvocationTargetException e) {
        e.getCause().printStackTrace();
      } catch (ReflectiveOperationException e) {
        e.printStackTrace();
      }
    }, "metastore");
    metastore.setDaemon(true);
    metastore.start();
    awaitPort(port, metastore);

    try (Connection connection = DriverManager.getConnection("jdbc:hive2://", "", "")) {
      out.println("READY");
      BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      String line;
      while ((line = in.readLine()) != null) {
        answer(connection, new String(Base64.getDecoder().decode(line.trim()), StandardCharsets.UTF_8), out);
      }
    }
    System.exit(0);
  }

  private static void awaitPort(int port, Thread metastore) throws InterruptedException {
    Await.await("the metastore serving on port " + port, Duration.ofMinutes(3)).every(Duration.ofMillis(200))
        .guardedBy(() -> {
          if (!metastore.isAlive()) {
            throw new IllegalStateException("the metastore ended before serving on port " + port);
          }
        })
        .until(() -> {
          try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            return true;
          } catch (java.io.IOException e) {
            return false;
          }
        });
  }

  private static void answer(Connection connection, String sql, PrintStream out) {
    Base64.Encoder b64 = Base64.getEncoder();
    try (Statement statement = connection.createStatement()) {
      if (statement.execute(sql)) {
        try (ResultSet rs = statement.getResultSet()) {
          int columns = rs.getMetaData().getColumnCount();
          while (rs.next()) {
            StringBuilder row = new StringBuilder("ROW");
            for (int i = 1; i <= columns; i++) {
              String cell = rs.getString(i);
              row.append(' ').append(cell == null ? "-" : b64.encodeToString(cell.getBytes(StandardCharsets.UTF_8)));
            }
            out.println(row);
          }
        }
      }
      out.println("END");
    } catch (SQLException | RuntimeException e) {
      java.io.StringWriter trace = new java.io.StringWriter();
      e.printStackTrace(new java.io.PrintWriter(trace));
      out.println("ERROR " + b64.encodeToString(trace.toString().getBytes(StandardCharsets.UTF_8)));
    }
  }
}
