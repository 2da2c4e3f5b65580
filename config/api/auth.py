"""Registration and token login (API.md: /auth/register/, /auth/token/)."""

from typing import Any

from django.contrib.auth import get_user_model, password_validation
from django.db import transaction
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle
from rest_framework.views import APIView


class AuthThrottle(AnonRateThrottle):
    scope = "auth"


class RegisterInputSerializer(serializers.Serializer[Any]):
    username = serializers.RegexField(r"^[A-Za-z0-9_.-]{3,32}$", max_length=32)
    password = serializers.CharField(write_only=True, max_length=128)

    def validate_username(self, value: str) -> str:
        if get_user_model().objects.filter(username__iexact=value).exists():
            raise serializers.ValidationError("This username is taken.")
        return value

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        user = get_user_model()(username=attrs["username"])
        password_validation.validate_password(attrs["password"], user)
        return attrs


class RegisterOutputSerializer(serializers.Serializer[Any]):
    username = serializers.CharField()


class TokenOutputSerializer(serializers.Serializer[Any]):
    token = serializers.CharField()


class RegisterView(APIView):
    permission_classes = [permissions.AllowAny]
    authentication_classes: list[type] = []
    throttle_classes = [AuthThrottle]

    @extend_schema(request=RegisterInputSerializer, responses={201: RegisterOutputSerializer})
    def post(self, request: Request) -> Response:
        data = RegisterInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        with transaction.atomic():
            user = get_user_model().objects.create_user(
                username=data.validated_data["username"], password=data.validated_data["password"]
            )
        return Response({"username": user.get_username()}, status=status.HTTP_201_CREATED)


class TokenView(APIView):
    permission_classes = [permissions.AllowAny]
    authentication_classes: list[type] = []
    throttle_classes = [AuthThrottle]

    @extend_schema(request=AuthTokenSerializer, responses={200: TokenOutputSerializer})
    def post(self, request: Request) -> Response:
        data = AuthTokenSerializer(data=request.data, context={"request": request})
        data.is_valid(raise_exception=True)
        token, _ = Token.objects.get_or_create(user=data.validated_data["user"])
        return Response({"token": token.key})
