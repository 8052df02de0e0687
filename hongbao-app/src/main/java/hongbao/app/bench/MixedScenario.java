package hongbao.app.bench;

import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Sends and grabs together: one send for every ten grabs. The grabs go to {@code packets} pre-sent
 * 10-share packets (10 members each); the sends made under load are new packets of their own,
 * checked by the reconciler.
 */
record MixedScenario(int packets, String round) implements Scenario {

  @Override
  public String name() {
    return "mixed";
  }

  @Override
  public List<Supplier<Future<?>>> prepare(BenchClient client, GrabBook book) {
    var ids = new ArrayList<String>(packets);
    for (int p = 0; p < packets; p++) {
      ids.add(Scenario.sendFunded(client, book, GroupsScenario.SHARES));
    }
    long amount = GroupsScenario.SHARES * FEN_PER_SHARE;
    client.topUp(Senders.SENDER, amount * packets);
    String senderToken = client.token(Senders.SENDER);
    String[] tokens = new String[GroupsScenario.SHARES];
    for (int u = 0; u < tokens.length; u++) {
      tokens[u] = client.token("mixed-" + round + "-" + u);
    }
    var calls = new ArrayList<Supplier<Future<?>>>(packets * (GroupsScenario.SHARES + 1));
    for (int p = 0; p < packets; p++) {
      calls.add(
          () ->
              client
                  .send(senderToken, amount, GroupsScenario.SHARES)
                  .onSuccess(
                      body -> {
                        if (body.getInteger("_status") == 201) {
                          book.packet(body.getString("id"), amount, GroupsScenario.SHARES);
                          book.outcome("SENT");
                        } else {
                          book.outcome("SEND_HTTP_" + body.getInteger("_status"));
                        }
                      })
                  .onFailure(e -> book.outcome("FAILED")));
      for (int u = 0; u < GroupsScenario.SHARES; u++) {
        calls.add(Scenario.grab(client, book, ids.get(p), "mixed-" + round + "-" + u, tokens[u]));
      }
    }
    return calls;
  }
}
