from django.urls import URLPattern, URLResolver

app_name = "battles"

urlpatterns: list[URLPattern | URLResolver] = []
