package hongbao.app.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import hongbao.app.support.Backends;
import hongbao.http.PacketIds;
import hongbao.redis.RedisKeys;
import hongbao.redis.RedisLink;
import org.junit.jupiter.api.Test;

class CeilingTest {

  private static final long NUMBER = 918_273_645L;

  @Test
  void packetNumber_isTheArmedPacket_onlyUnderTheServicesAlphabetAndShards() {
    String redisUrl = Backends.embedded().redisUrl();
    var keys = new RedisKeys(1024);
    var services =
        new PacketIds(new StringBuilder(PacketIds.DEFAULT_ALPHABET).reverse().toString());
    String packetId = services.encode(NUMBER);
    try (var link = RedisLink.open(redisUrl);
        var redis = new RedisInfo(redisUrl)) {
      link.sync().hset(keys.meta(NUMBER), "armed", "1");
      try {
        assertThat(Ceiling.packetNumber(packetId, services, keys, redis)).isEqualTo(NUMBER);
        assertThatThrownBy(
                () ->
                    Ceiling.packetNumber(
                        packetId, new PacketIds(PacketIds.DEFAULT_ALPHABET), keys, redis))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("--id-alphabet");
        assertThatThrownBy(() -> Ceiling.packetNumber(packetId, services, new RedisKeys(16), redis))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("--shards");
      } finally {
        link.sync().del(keys.meta(NUMBER));
      }
    }
  }
}
