// Typed into the spark-shell before the seeds' steps, after the test's two values
// seedsRoot (the folder this run's tables live in) and metastoreUri (this run's Hive Metastore).
// What the test compares is what these helpers print, on lines that start with "%% ".
import org.apache.spark.sql.DataFrame
import org.apache.spark.sql.{functions => F}
import scala.collection.JavaConverters._

/**
 * A result in the test's canonical form: its columns and types, then its rows as JSON, with the file
 * names and the task and row numbers of the commit sequence numbers masked (they say how a writer split
 * its work; the test masks the commit times).
 */
object Compared {
  def print(df: DataFrame, ordered: Boolean): Unit = {
    df.schema.fields.foreach(f => println(s"%% column ${f.name} ${f.dataType.simpleString}"))
    val columns = df.columns.map {
      case c @ "_hoodie_file_name" => F.lit("<file>").as(c)
      case c @ "_hoodie_commit_seqno" => F.regexp_replace(F.col(c), "_\\d+_\\d+$", "_<task>_<row>").as(c)
      case c => F.col(s"`$c`")
    }
    val json = df.select(F.to_json(F.struct(columns: _*), Map("ignoreNullFields" -> "false").asJava)).collect().map(_.getString(0))
    (if (ordered) json.toSeq else json.toSeq.sorted).foreach(r => println(s"%% row $r"))
  }
}

/** The rows of a query whose order is not defined (sorted for the comparison). */
def rows(df: DataFrame): Unit = Compared.print(df, ordered = false)

/** The rows of a query that orders them, in that order. */
def orderedRows(df: DataFrame): Unit = Compared.print(df, ordered = true)

def value(v: Any): Unit = println(s"%% value $v")

/** The completed write instants of the table at basePath, read from its own timeline, oldest first. */
def completedInstants(basePath: String): Seq[String] = {
  val timeline = new org.apache.hadoop.fs.Path(basePath, ".hoodie")
  val fs = timeline.getFileSystem(spark.sparkContext.hadoopConfiguration)
  fs.listStatus(timeline).map(_.getPath.getName).filter(_.matches("\\d{17}\\.(commit|deltacommit|replacecommit)"))
    .map(_.take(17)).sorted.toSeq
}

/** An instant (yyyyMMddHHmmssSSS) in the time travel form "yyyy-MM-dd HH:mm:ss.SSS". */
def asDateTime(instant: String): String =
  s"${instant.substring(0, 4)}-${instant.substring(4, 6)}-${instant.substring(6, 8)} " +
    s"${instant.substring(8, 10)}:${instant.substring(10, 12)}:${instant.substring(12, 14)}.${instant.substring(14, 17)}"

/** The day after an instant's, in the time travel form "yyyy-MM-dd" (that day's midnight). */
def dayAfter(instant: String): String =
  java.time.LocalDate.parse(instant.take(8), java.time.format.DateTimeFormatter.BASIC_ISO_DATE).plusDays(1).toString

/**
 * The quick start's trips with what QuickstartUtils draws unseeded made the same in both runs: each record
 * key (UUID.randomUUID) becomes a name-based UUID of its order of first appearance, each ts (a random time
 * in the last seven days) the line's order, so later lines win the precombine as they would by chance.
 * Partition paths, riders, drivers, coordinates and fares come from the generator's seeded draws.
 */
object Trips {
  private val keys = scala.collection.mutable.LinkedHashMap[String, String]()
  private var lines = 0L
  private val Uuid = "\"uuid\": \"([^\"]+)\"".r

  def pinned(json: java.util.List[String]): Seq[String] = json.asScala.toList.map { line =>
    val uuid = Uuid.findFirstMatchIn(line).getOrElse(sys.error(s"no uuid in trip $line")).group(1)
    val key = keys.getOrElseUpdate(uuid, java.util.UUID.nameUUIDFromBytes(s"trip-${keys.size}".getBytes("UTF-8")).toString)
    lines += 1
    line.replace(uuid, key).replaceFirst("\"ts\": \\d+", "\"ts\": " + (1700000000000L + lines * 1000))
  }
}
def pinned(json: java.util.List[String]): Seq[String] = Trips.pinned(json)
