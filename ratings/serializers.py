"""The players and leaderboards API's answers, rendered from the selectors' records (docs/api.md)."""

from __future__ import annotations

from rest_framework import serializers


class RatingSerializer(serializers.Serializer[object]):
    game = serializers.CharField(help_text="The game family: rummy500, basic or board.")
    rating = serializers.IntegerField(help_text="The rating shown: 1000 + 40 * (mu - 3 sigma).")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    games = serializers.IntegerField(help_text="Rated results so far.")
    provisional = serializers.BooleanField(
        help_text="Fewer rated results than RAMINO_RATINGS_PROVISIONAL_GAMES."
    )


class RecentSerializer(serializers.Serializer[object]):
    game = serializers.CharField(help_text="The preset played.")
    table = serializers.IntegerField(allow_null=True, help_text="A ring table's id (null for a tournament).")
    tournament = serializers.IntegerField(allow_null=True, help_text="A tournament's id (null for a table).")
    place = serializers.IntegerField(help_text="1 is first; tied players share a place.")
    at = serializers.DateTimeField()


class ProfileTournamentSerializer(serializers.Serializer[object]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    place = serializers.IntegerField()
    prize = serializers.IntegerField(
        allow_null=True, help_text="Chips won: shown to the player and staff only."
    )


class ProfileSerializer(serializers.Serializer[object]):
    username = serializers.CharField()
    joined = serializers.DateTimeField()
    ratings = RatingSerializer(many=True)
    recent = RecentSerializer(many=True)
    tournaments = ProfileTournamentSerializer(many=True)


class HistoryPointSerializer(serializers.Serializer[object]):
    at = serializers.DateTimeField(source="finished_at")
    rating = serializers.IntegerField(source="rating_after")
    place = serializers.IntegerField()
    games = serializers.IntegerField(source="games_after")


class LeaderboardRowSerializer(serializers.Serializer[object]):
    rank = serializers.IntegerField()
    username = serializers.CharField()
    rating = serializers.IntegerField()
    games = serializers.IntegerField()
