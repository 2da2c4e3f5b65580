from celery import shared_task

from accounts import services


@shared_task(name="accounts.purge_expired_tokens", acks_late=True, ignore_result=True)
def purge_expired_tokens() -> int:
    return services.purge_expired_tokens()
