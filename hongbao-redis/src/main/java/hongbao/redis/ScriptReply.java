package hongbao.redis;

import hongbao.core.Invariants;

/**
 * The reply of a script that answers with one string: a verdict, then its values, each after one
 * space ("GRABBED 49 6838"). Those scripts answer so rather than with an array because Redis 6.2
 * writes every array a script returns with a system call of its own, and their connections pipeline
 * many calls (see grab.lua). A reply without the value asked for is a bug in the script or its
 * caller: an invariant violation, never retried.
 */
public final class ScriptReply {

  private ScriptReply() {}

  /** The verdict: the reply up to its first space, or all of it. */
  public static String verdict(String reply) {
    int space = reply.indexOf(' ');
    return space < 0 ? reply : reply.substring(0, space);
  }

  /** Whether the reply has an {@code index}-th value after the verdict (from 0). */
  public static boolean has(String reply, int index) {
    int from = reply.indexOf(' ');
    for (int i = 0; i < index && from >= 0; i++) {
      from = reply.indexOf(' ', from + 1);
    }
    return from >= 0;
  }

  /** The {@code index}-th value after the verdict (from 0), as a number. */
  public static long number(String reply, int index) {
    int from = reply.indexOf(' ');
    for (int i = 0; i < index && from >= 0; i++) {
      from = reply.indexOf(' ', from + 1);
    }
    if (from < 0) {
      throw new Invariants.InvariantViolation("script reply '" + reply + "' has no value " + index);
    }
    int to = reply.indexOf(' ', from + 1);
    try {
      return Long.parseLong(reply, from + 1, to < 0 ? reply.length() : to, 10);
    } catch (NumberFormatException e) {
      throw new Invariants.InvariantViolation(
          "script reply '" + reply + "': value " + index + " is not a number");
    }
  }

  /** Everything after the verdict and its space, whatever it holds. */
  public static String rest(String reply) {
    int space = reply.indexOf(' ');
    if (space < 0) {
      throw new Invariants.InvariantViolation("script reply '" + reply + "' has nothing after it");
    }
    return reply.substring(space + 1);
  }
}
