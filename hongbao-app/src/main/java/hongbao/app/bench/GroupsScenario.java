package hongbao.app.bench;

import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Many small group packets, as in chat groups: each of {@code packets} packets has 10 shares and 20
 * members of a shared pool grab it, so half of them come away empty-handed.
 */
record GroupsScenario(int packets, String round) implements Scenario {

  static final int SHARES = 10;
  static final int MEMBERS = 20;

  /** Users are reused across packets (distinct within each) so that tokens stay few. */
  static final int POOL = 1_000;

  @Override
  public String name() {
    return "groups";
  }

  @Override
  public List<Supplier<Future<?>>> prepare(BenchClient client, GrabBook book) {
    String[] tokens = new String[POOL];
    for (int u = 0; u < POOL; u++) {
      tokens[u] = client.token("member-" + round + "-" + u);
    }
    var ids = new ArrayList<String>(packets);
    for (int p = 0; p < packets; p++) {
      ids.add(Scenario.sendFunded(client, book, SHARES));
    }
    // Interleaved packet by packet round by round: the grabs of one packet overlap in time.
    var calls = new ArrayList<Supplier<Future<?>>>(packets * MEMBERS);
    for (int m = 0; m < MEMBERS; m++) {
      for (int p = 0; p < packets; p++) {
        int user = (p * MEMBERS + m) % POOL;
        calls.add(
            Scenario.grab(client, book, ids.get(p), "member-" + round + "-" + user, tokens[user]));
      }
    }
    return calls;
  }
}
