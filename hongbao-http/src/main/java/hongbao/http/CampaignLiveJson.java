package hongbao.http;

import hongbao.core.campaign.CampaignLive;
import hongbao.core.campaign.PrizeLine;
import hongbao.core.campaign.PrizePools;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.Map;

/** The answer of {@code GET /api/v1/admin/campaigns/{id}/live} (docs/api.md). */
final class CampaignLiveJson {

  private CampaignLiveJson() {}

  static JsonObject render(CampaignLive.Live live) {
    var rounds = new JsonArray();
    for (CampaignLive.RoundLive round : live.rounds()) {
      rounds.add(round(round));
    }
    var queues = new JsonArray();
    for (Map.Entry<String, Long> lag : live.queueLags().entrySet()) {
      queues.add(new JsonObject().put("queue", lag.getKey()).put("lag", lag.getValue()));
    }
    var types = new JsonArray();
    for (CampaignLive.TypeRate type : live.types()) {
      types.add(
          new JsonObject()
              .put("type", type.type())
              .put("issuedPerSecond", tenths(type.issuedPerSecond()))
              .put("ratePerSecond", type.ratePerSecond())
              .put("fused", type.fused()));
    }
    return new JsonObject()
        .put("id", live.campaign().id())
        .put("name", live.campaign().name())
        .put("status", live.status().name())
        .put("at", Render.time(live.at()))
        .put("budget", live.campaign().budget().fen())
        .put("spent", live.spent().fen())
        .put("rateSeconds", CampaignLive.RATE_SECONDS)
        .put("rounds", rounds)
        .put("queues", queues)
        .put("types", types);
  }

  private static JsonObject round(CampaignLive.RoundLive round) {
    var prizes = new JsonArray();
    for (int line = 0; line < round.round().prizes().size(); line++) {
      PrizeLine prize = round.round().prizes().get(line);
      prizes.add(
          new JsonObject()
              .put("type", prize.type())
              .put("amount", prize.amount())
              .put("count", prize.count())
              .put("left", round.left().get(line)));
    }
    var seconds = new JsonArray();
    for (PrizePools.Beat beat : round.seconds()) {
      seconds.add(
          new JsonObject()
              .put("at", Render.time(Instant.ofEpochSecond(beat.second())))
              .put("taps", beat.taps())
              .put("wins", beat.wins()));
    }
    return new JsonObject()
        .put("round", round.round().number())
        .put("status", round.status().name())
        .put("startsAt", Render.time(round.round().startsAt()))
        .put("endsAt", Render.time(round.round().endsAt()))
        .put("taps", round.taps())
        .put("wins", round.won())
        .put("prizesLeft", round.prizesLeft())
        .put("tapsPerSecond", tenths(round.tapsPerSecond()))
        .put("winsPerSecond", tenths(round.winsPerSecond()))
        .put("seconds", seconds)
        .put("prizes", prizes);
  }

  private static double tenths(double value) {
    return Math.round(value * 10) / 10.0;
  }
}
