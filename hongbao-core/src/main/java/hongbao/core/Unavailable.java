package hongbao.core;

/**
 * A dependency (Redis, PostgreSQL, a queue, a gateway) is down, unreachable or too slow to answer
 * in time. The one exception family that loops retry with backoff and the HTTP layer answers with
 * 503: an outage is waited out, never counted against the work that met it. Anything else that goes
 * wrong is either a domain outcome (a value or a {@link RejectedException}) or a bug (an {@link
 * Invariants.InvariantViolation}, which is an {@link Error} so that no generic catch of runtime
 * exceptions swallows it).
 */
public class Unavailable extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String dependency;

  public Unavailable(String dependency, String message, Throwable cause) {
    super(dependency + " unavailable: " + message, cause);
    this.dependency = dependency;
  }

  /** Which dependency failed: {@code redis}, {@code postgres}, ... */
  public String dependency() {
    return dependency;
  }
}
