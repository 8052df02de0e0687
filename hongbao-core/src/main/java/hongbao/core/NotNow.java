package hongbao.core;

import java.util.List;

/**
 * How a dependency says it cannot serve now, as opposed to refusing the request: the answers the
 * adapters sort into {@link Unavailable} (an outage, waited out and retried) and the HTTP layer
 * answers 503, in one place so that a worker and a request judge the same answer alike. Anything
 * else a server answers (a script's error, a constraint, bad SQL) is the request's fault: a bug.
 */
public final class NotNow {

  /**
   * Redis error replies: loading its data, busy with a script, a master down or unknown, a slot
   * moving or asked elsewhere, a replica (after a failover) refusing writes, too few replicas,
   * persistence failing (MISCONF) or memory full (OOM), a script it does not know yet.
   */
  public static final List<String> REDIS_REPLIES =
      List.of(
          "LOADING",
          "BUSY",
          "MASTERDOWN",
          "CLUSTERDOWN",
          "TRYAGAIN",
          "MOVED",
          "ASK",
          "READONLY",
          "NOSCRIPT",
          "NOREPLICAS",
          "MISCONF",
          "OOM");

  /**
   * A write refused by a read-only server: a standby after a failover (or a read-only transaction).
   */
  public static final String POSTGRES_READ_ONLY = "25006";

  /**
   * PostgreSQL SQLState classes (two characters) and states: connection (08), resources (53), a
   * statement timeout or cancel (57014), a server shutting down, crashed, starting or timing an
   * idle session out (57P01-57P03, 57P05), a system or I/O error (58000, 58030), a write on a
   * standby after a failover ({@link #POSTGRES_READ_ONLY}), a lock not available (55P03). A dropped
   * database or a missing file is no outage to wait out.
   */
  public static final List<String> POSTGRES_STATES =
      List.of(
          "08",
          "53",
          "57014",
          "57P01",
          "57P02",
          "57P03",
          "57P05",
          "58000",
          "58030",
          POSTGRES_READ_ONLY,
          "55P03");

  private NotNow() {}

  /**
   * Whether a Redis error reply says "not now": as the reply's code, or, for a command a script
   * called, after the script error's own prefix ({@code ERR Error running script ...: -OOM command
   * not allowed ...} on Redis 6.2).
   */
  public static boolean redisReply(String message) {
    String reply = String.valueOf(message);
    // The code is a word: BUSY must not match BUSYGROUP, a consumer group that already exists.
    return REDIS_REPLIES.stream()
        .anyMatch(
            code ->
                reply.equals(code)
                    || reply.startsWith(code + " ")
                    || reply.contains("-" + code + " "));
  }

  /** Whether a PostgreSQL SQLState says "not now". */
  public static boolean postgresState(String sqlState) {
    return sqlState != null && POSTGRES_STATES.stream().anyMatch(sqlState::startsWith);
  }
}
