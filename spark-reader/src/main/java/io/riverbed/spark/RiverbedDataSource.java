package io.riverbed.spark;

/**
 * The same DataSource under the short name {@code riverbed}, for sessions that also have Apache
 * Hudi's bundle (which owns {@code hudi} there).
 */
public class RiverbedDataSource extends HudiDataSource {
  @Override
  public String shortName() {
    return "riverbed";
  }
}
