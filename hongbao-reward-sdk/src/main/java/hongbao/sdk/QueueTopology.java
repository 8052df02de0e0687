package hongbao.sdk;

import hongbao.core.reward.VirtualQueue;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Which topics each virtual queue sends to: a master and a backup, each {@code kafka:<topic>} or
 * {@code redis:<topic>}, and the percentage of users (by hash) whose events go to the master first.
 * Written {@code MASSIVE=kafka:rewards-massive|redis:rewards-massive|80;SPECIAL=...}; a queue not
 * named keeps its default. One topic may serve several queues (as master of one, backup of
 * another).
 */
public record QueueTopology(Map<VirtualQueue, Route> routes) {

  private static final Pattern TOPIC = Pattern.compile("[A-Za-z0-9._-]{1,100}");

  /** A real queue's topic. */
  public record Topic(Kind kind, String name) {
    public Topic {
      if (!TOPIC.matcher(name).matches()) {
        throw new IllegalArgumentException("topic names are 1-100 of [A-Za-z0-9._-]: " + name);
      }
    }

    static Topic parse(String text) {
      String[] parts = text.trim().split(":", 2);
      if (parts.length != 2) {
        throw new IllegalArgumentException("a topic is kafka:<name> or redis:<name>: " + text);
      }
      return new Topic(
          Kind.valueOf(parts[0].trim().toUpperCase(java.util.Locale.ROOT)), parts[1].trim());
    }

    @Override
    public String toString() {
      return kind.name().toLowerCase(java.util.Locale.ROOT) + ":" + name;
    }
  }

  public enum Kind {
    KAFKA,
    REDIS
  }

  /** One virtual queue's topics. */
  public record Route(Topic master, Topic backup, int masterPercent) {
    public Route {
      if (master.kind() == backup.kind()) {
        throw new IllegalArgumentException("master and backup must be queues of different kinds");
      }
      if (masterPercent < 0 || masterPercent > 100) {
        throw new IllegalArgumentException("masterPercent must be 0..100");
      }
    }
  }

  public static QueueTopology defaults() {
    var routes = new EnumMap<VirtualQueue, Route>(VirtualQueue.class);
    routes.put(
        VirtualQueue.MASSIVE,
        new Route(
            new Topic(Kind.KAFKA, "rewards-massive"),
            new Topic(Kind.REDIS, "rewards-massive"),
            80));
    routes.put(
        VirtualQueue.SPECIAL,
        new Route(
            new Topic(Kind.KAFKA, "rewards-special"),
            new Topic(Kind.REDIS, "rewards-special"),
            80));
    routes.put(
        VirtualQueue.EXPRESS,
        new Route(
            new Topic(Kind.REDIS, "rewards-express"),
            new Topic(Kind.KAFKA, "rewards-express"),
            80));
    return new QueueTopology(routes);
  }

  /** The defaults with the queues named in {@code spec} replaced; null or blank: the defaults. */
  public static QueueTopology parse(String spec) {
    var routes = new EnumMap<>(defaults().routes());
    if (spec == null || spec.isBlank()) {
      return new QueueTopology(routes);
    }
    for (String entry : spec.split(";")) {
      if (entry.isBlank()) {
        continue;
      }
      String[] nameAndRoute = entry.split("=", 2);
      String[] parts = nameAndRoute.length == 2 ? nameAndRoute[1].split("\\|") : new String[0];
      if (parts.length != 3) {
        throw new IllegalArgumentException(
            "a queue is NAME=master|backup|masterPercent, not: " + entry);
      }
      routes.put(
          VirtualQueue.valueOf(nameAndRoute[0].trim()),
          new Route(
              Topic.parse(parts[0]), Topic.parse(parts[1]), Integer.parseInt(parts[2].trim())));
    }
    return new QueueTopology(routes);
  }

  /** Every topic any queue uses, each once. */
  public Set<Topic> topics() {
    var topics = new LinkedHashSet<Topic>();
    routes
        .values()
        .forEach(
            r -> {
              topics.add(r.master());
              topics.add(r.backup());
            });
    return topics;
  }

  public List<String> topicsOf(Kind kind) {
    var names = new ArrayList<String>();
    topics().stream().filter(t -> t.kind() == kind).forEach(t -> names.add(t.name()));
    return names;
  }
}
