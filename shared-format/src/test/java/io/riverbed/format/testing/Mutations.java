package io.riverbed.format.testing;

import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/** Damage done to a valid file's bytes by the fuzz tests: flips, insertions, cuts, overwrites. */
public final class Mutations {
  private Mutations() {}

  /** One way to damage bytes; positions wrap around the input length. */
  public sealed interface Mutation {
    byte[] apply(byte[] input);
  }

  public record Flip(List<Integer> positions, byte mask) implements Mutation {
    @Override
    public byte[] apply(byte[] input) {
      byte[] out = input.clone();
      if (out.length > 0) {
        positions.forEach(p -> out[p % out.length] ^= (byte) (mask | 1));
      }
      return out;
    }
  }

  public record Insert(int position, byte[] inserted) implements Mutation {
    @Override
    public byte[] apply(byte[] input) {
      int at = position % (input.length + 1);
      byte[] out = new byte[input.length + inserted.length];
      System.arraycopy(input, 0, out, 0, at);
      System.arraycopy(inserted, 0, out, at, inserted.length);
      System.arraycopy(input, at, out, at + inserted.length, input.length - at);
      return out;
    }
  }

  public record Cut(int length) implements Mutation {
    @Override
    public byte[] apply(byte[] input) {
      return Arrays.copyOf(input, input.length == 0 ? 0 : length % input.length);
    }
  }

  /** Overwrites bytes at a position with a text fragment (a digit run, a quote, a brace...). */
  public record Overwrite(int position, String text) implements Mutation {
    @Override
    public byte[] apply(byte[] input) {
      byte[] out = input.clone();
      byte[] t = text.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
      for (int i = 0; i < t.length && out.length > 0; i++) {
        out[(int) ((position + (long) i) % out.length)] = t[i];
      }
      return out;
    }
  }

  public record Replace(byte[] bytes) implements Mutation {
    @Override
    public byte[] apply(byte[] input) {
      return bytes.clone();
    }
  }

  /** Every kind of damage, a few of them in a row. */
  public static Arbitrary<List<Mutation>> mutations() {
    Arbitrary<Integer> position = Arbitraries.integers().between(0, Integer.MAX_VALUE);
    Arbitrary<Mutation> one = Arbitraries.oneOf(
        Combinators.combine(position.list().ofMinSize(1).ofMaxSize(6), Arbitraries.bytes())
            .as((p, m) -> (Mutation) new Flip(p, m)),
        Combinators.combine(position, Arbitraries.bytes().array(byte[].class).ofMaxSize(24))
            .as((p, b) -> (Mutation) new Insert(p, b)),
        position.map(p -> (Mutation) new Cut(p)),
        Combinators.combine(position, Arbitraries.of("9999999999999999999999", "-1", "\"", "{", "}", "[", "]",
            ":", ",", "null", "true", "\\u0000", "\\", "=", "\n", "#", "\u00ff\u00fe", "1e400", "-2147483649"))
            .as((p, t) -> (Mutation) new Overwrite(p, t)),
        Arbitraries.bytes().array(byte[].class).ofMaxSize(200).map(b -> (Mutation) new Replace(b)));
    return one.list().ofMinSize(1).ofMaxSize(3);
  }

  public static byte[] apply(byte[] input, List<Mutation> mutations) {
    byte[] out = input;
    for (Mutation m : mutations) {
      out = m.apply(out);
    }
    return out;
  }
}
